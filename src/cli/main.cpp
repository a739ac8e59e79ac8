#include "cli/command.h"

int main(int argc, char** argv) { return lore::cli::Main(argc, argv); }
