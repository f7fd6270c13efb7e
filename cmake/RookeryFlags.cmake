# One INTERFACE target carries the compiler flags every Rookery target shares.
add_library(rookery_flags INTERFACE)
add_library(rookery::flags ALIAS rookery_flags)
target_compile_features(rookery_flags INTERFACE cxx_std_20)
# Qt's `slots`/`signals` macros collide with LibTorch's headers.
target_compile_definitions(rookery_flags INTERFACE QT_NO_KEYWORDS
  ROOKERY_VERSION="${PROJECT_VERSION}")
target_compile_options(rookery_flags INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow=local -Wno-unused-parameter>)
if(ROOKERY_WERROR)
  target_compile_options(rookery_flags INTERFACE $<$<CXX_COMPILER_ID:GNU,Clang>:-Werror>)
endif()

if(ROOKERY_SANITIZE)
  string(REPLACE "," ";" _rookery_san "${ROOKERY_SANITIZE}")
  foreach(s IN LISTS _rookery_san)
    target_compile_options(rookery_flags INTERFACE -fsanitize=${s})
    target_link_options(rookery_flags INTERFACE -fsanitize=${s})
  endforeach()
  target_compile_options(rookery_flags INTERFACE -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
endif()

# libFuzzer targets (tests/fuzz): clang only, in a build directory of their own (scripts/fuzz.sh).
# Every Rookery target is instrumented for coverage, ASan and UBSan; only tests/fuzz links libFuzzer.
option(ROOKERY_FUZZ "Build the libFuzzer targets in tests/fuzz (clang; see scripts/fuzz.sh)" OFF)
if(ROOKERY_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "ROOKERY_FUZZ needs clang (CC=clang CXX=clang++), not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  target_compile_options(rookery_flags INTERFACE -fsanitize=fuzzer-no-link,address,undefined
    -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(rookery_flags INTERFACE -fsanitize=address,undefined)
endif()
