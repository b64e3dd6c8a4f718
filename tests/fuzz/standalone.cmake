# What the standalone fuzz projects (tests/fuzz/<area>/standalone) share, included after their
# project(): libFuzzer needs clang (-fsanitize=fuzzer) while the main build uses GCC, so each is
# a small project of its own. Sets the C++ standard, SSDK_ROOT and the instrumentation flags,
# includes the lists of core sources (tests/support/standalone_sources.cmake) and defines
# ssdk_fuzz_library() and ssdk_fuzz_target().
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "the fuzz targets need clang (-DCMAKE_CXX_COMPILER=clang++)")
endif()

set(CMAKE_CXX_STANDARD 23)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)

get_filename_component(SSDK_ROOT ${CMAKE_CURRENT_LIST_DIR}/../.. ABSOLUTE)
include(${SSDK_ROOT}/tests/support/standalone_sources.cmake)

# GCC 12's libstdc++ hides <expected> behind __cpp_concepts >= 202002L, which clang (14, 16)
# does not announce although it compiles that header correctly.
set(expected_workaround -D__cpp_concepts=202002L -Wno-macro-redefined -Wno-builtin-macro-redefined)
# The fuzz targets link libFuzzer; the code they fuzz is instrumented for it without its main().
set(sanitizers -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined)
set(library_flags ${expected_workaround} -fsanitize=fuzzer-no-link,address,undefined
  -fno-sanitize-recover=undefined -g1 -O1)

# ssdk_fuzz_library(NAME FILES...): the static library ssdk_fuzz_NAME of FILES (paths below the
# root), instrumented.
function(ssdk_fuzz_library name)
  list(TRANSFORM ARGN PREPEND ${SSDK_ROOT}/)
  add_library(ssdk_fuzz_${name} STATIC ${ARGN})
  target_include_directories(ssdk_fuzz_${name} PUBLIC ${SSDK_ROOT})
  target_compile_options(ssdk_fuzz_${name} PUBLIC ${library_flags})
endfunction()

# ssdk_fuzz_target(TARGET LIBRARY): the libFuzzer executable TARGET of ../TARGET.cpp, linking
# LIBRARY.
function(ssdk_fuzz_target target library)
  add_executable(${target} ${CMAKE_CURRENT_SOURCE_DIR}/../${target}.cpp)
  target_compile_options(${target} PRIVATE ${sanitizers} -g1 -O1)
  target_link_options(${target} PRIVATE ${sanitizers})
  target_link_libraries(${target} PRIVATE ${library})
endfunction()
