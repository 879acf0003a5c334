// warpboard-record: records live traces without Qt, for machines that have a GPU but no GUI.
#include "live/record_command.h"

int main(int argc, char** argv) {
    return wb::runRecordCommand("warpboard-record",
                                std::vector<std::string>(argv + 1, argv + argc));
}
