# Loaded by CMake after its own C defaults (CMAKE_USER_MAKE_RULES_OVERRIDE_C in
# xc8.cmake): XC8 compiles to p-code objects (.p1) and links an .elf + .hex.
set(CMAKE_C_OUTPUT_EXTENSION .p1)
set(CMAKE_EXECUTABLE_SUFFIX .elf)
