# MPI for warpboard-summarize (only that executable links it). WARPBOARD_MPI: AUTO uses MPI
# when CMake finds it (Debian: libopenmpi-dev + openmpi-bin), ON requires it, OFF never looks.
# Sets WARPBOARD_HAVE_MPI. Without MPI the summariser runs as one process and refuses to be
# started as several by a launcher.
set(WARPBOARD_MPI AUTO CACHE STRING "Build warpboard-summarize with MPI: AUTO, ON or OFF")
set_property(CACHE WARPBOARD_MPI PROPERTY STRINGS AUTO ON OFF)
set(WARPBOARD_HAVE_MPI OFF)
if(NOT WARPBOARD_MPI STREQUAL "OFF")
  # The C API used from C++ (the project enables CXX only), without the MPI-2 C++ bindings.
  set(MPI_CXX_SKIP_MPICXX TRUE)
  if(WARPBOARD_MPI STREQUAL "ON")
    find_package(MPI REQUIRED COMPONENTS CXX)
  else()
    find_package(MPI QUIET COMPONENTS CXX)
  endif()
  if(MPI_CXX_FOUND)
    set(WARPBOARD_HAVE_MPI ON)
  endif()
endif()
if(WARPBOARD_HAVE_MPI)
  message(STATUS "MPI found (MPI ${MPI_CXX_VERSION}): warpboard-summarize runs under mpirun/srun, "
                 "launcher ${MPIEXEC_EXECUTABLE}")
else()
  message(STATUS "MPI not used (WARPBOARD_MPI=${WARPBOARD_MPI}): warpboard-summarize runs as "
                 "one process")
endif()
