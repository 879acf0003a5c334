# Optional CUDA. The kernels library gets real device code when nvcc is found; otherwise
# it compiles a fallback that reports "no GPU". Both paths are built by CI.
include(CheckLanguage)
check_language(CUDA)
if(CMAKE_CUDA_COMPILER)
  set(_wb_cuda_default ON)
else()
  set(_wb_cuda_default OFF)
endif()
option(WARPBOARD_CUDA "Compile the CUDA kernels (needs nvcc)" ${_wb_cuda_default})

if(WARPBOARD_CUDA)
  if(NOT CMAKE_CUDA_COMPILER)
    message(FATAL_ERROR "WARPBOARD_CUDA=ON but no CUDA compiler was found; "
                        "configure with -DWARPBOARD_CUDA=OFF or put nvcc on PATH")
  endif()
  # "native" needs a GPU at configure time; fixed architectures build anywhere.
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES "80;90")
  endif()
  # A static runtime lets the binary start on machines with no driver installed.
  set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
  set(CMAKE_CUDA_STANDARD 17) # CMake 3.25 has no CUDA20 dialect flags for nvcc
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
endif()
