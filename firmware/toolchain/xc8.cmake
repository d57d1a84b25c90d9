# CMake toolchain file for Microchip XC8 (v2.x, xc8-cc driver) targeting the
# PIC16F18326. Builds the real firmware image from firmware/toolchain/CMakeLists.txt:
#
#   cmake -S firmware/toolchain -B build/xc8 \
#         -DCMAKE_TOOLCHAIN_FILE=firmware/toolchain/xc8.cmake
#   cmake --build build/xc8          # -> build/xc8/epdle.hex
#
# XC8 is not installed in this project's CI/dev container, so this file is
# documented but not exercised here; the host register check
# (firmware/ports/pic16f18326/CMakeLists.txt) and `make size` stand in for it.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR pic16)

set(EPDLE_PIC_CPU 16F18326 CACHE STRING "XC8 -mcpu value")

file(GLOB EPDLE_XC8_HINTS /opt/microchip/xc8/*/bin "C:/Program Files/Microchip/xc8/*/bin")
find_program(EPDLE_XC8_CC xc8-cc HINTS ${EPDLE_XC8_HINTS} REQUIRED)
set(CMAKE_C_COMPILER ${EPDLE_XC8_CC})

# xc8-cc cannot link a host-style test program: skip CMake's compiler probe.
set(CMAKE_C_COMPILER_WORKS TRUE)
set(CMAKE_C_COMPILER_FORCED TRUE)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# Object and image suffixes: CMake's defaults would win over settings here.
set(CMAKE_USER_MAKE_RULES_OVERRIDE_C ${CMAKE_CURRENT_LIST_DIR}/xc8_rules.cmake)
set(CMAKE_C_FLAGS_INIT "-mcpu=${EPDLE_PIC_CPU} -std=c99 -O2")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,-Map=epdle.map")
set(CMAKE_C_LINK_EXECUTABLE
    "<CMAKE_C_COMPILER> <FLAGS> <CMAKE_C_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
