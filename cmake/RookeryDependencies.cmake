# Every third-party dependency Rookery uses, found once here (all from Debian's packages).
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)

# ZeroMQ (CURVE through libsodium) + cppzmq headers
pkg_check_modules(ZMQ REQUIRED IMPORTED_TARGET libzmq)
find_path(CPPZMQ_INCLUDE_DIR zmq.hpp REQUIRED)
# libsodium (ZeroMQ's CURVE uses it too): SHA-256 of the dataset chunks volunteers fetch.
pkg_check_modules(SODIUM REQUIRED IMPORTED_TARGET libsodium)

# Protocol Buffers: every control message on the wire is a schema'd protobuf message.
find_package(Protobuf REQUIRED)

find_package(SQLite3 REQUIRED)
find_package(spdlog REQUIRED)          # logging
find_package(CLI11 CONFIG REQUIRED)    # command-line parsing
find_package(nlohmann_json REQUIRED)   # job specs (JSON)

# libsystemd's sd-bus: logind's idle hint for the governor where no desktop session reports
# input idleness (Wayland without the GUI's X11 extension, headless nodes). Optional: without
# it the governor says that sensor is not built in.
pkg_check_modules(SYSTEMD IMPORTED_TARGET libsystemd)

# LibTorch: PyTorch's own (scripts/install-libtorch.sh unpacks its wheel), linked as two parts.
#   rookery::torch       the CPU part (libtorch_cpu, libc10): every torch user links this, and a
#                        CPU-only run loads nothing else of LibTorch.
#   rookery::torch_cuda  the CUDA part (libtorch_cuda, libc10_cuda): only the CUDA backend module
#                        (model/cuda_backend_module.cpp) links it; a node loads that module when it
#                        finds a GPU, as llama.cpp and Ollama load their GPU backends.
# Torch's own CMake package is not used: its `torch` target links both parts into everything.
set(ROOKERY_LIBTORCH_VERSION 2.11.0)
set(ROOKERY_LIBTORCH "/opt/rookery/libtorch-${ROOKERY_LIBTORCH_VERSION}" CACHE PATH
    "LibTorch ${ROOKERY_LIBTORCH_VERSION} as scripts/install-libtorch.sh lays it out")
find_library(ROOKERY_TORCH_CPU_LIBRARY torch_cpu PATHS "${ROOKERY_LIBTORCH}/lib" NO_DEFAULT_PATH)
find_library(ROOKERY_C10_LIBRARY c10 PATHS "${ROOKERY_LIBTORCH}/lib" NO_DEFAULT_PATH)
if(NOT ROOKERY_TORCH_CPU_LIBRARY OR NOT ROOKERY_C10_LIBRARY OR NOT EXISTS "${ROOKERY_LIBTORCH}/VERSION")
  message(FATAL_ERROR "LibTorch ${ROOKERY_LIBTORCH_VERSION} not found in ${ROOKERY_LIBTORCH}: "
                      "run scripts/install-libtorch.sh (or set ROOKERY_LIBTORCH)")
endif()
file(STRINGS "${ROOKERY_LIBTORCH}/VERSION" _libtorch_version LIMIT_COUNT 1)
if(NOT _libtorch_version STREQUAL ROOKERY_LIBTORCH_VERSION)
  message(FATAL_ERROR "${ROOKERY_LIBTORCH} holds LibTorch ${_libtorch_version}; Rookery pins "
                      "${ROOKERY_LIBTORCH_VERSION}: run scripts/install-libtorch.sh")
endif()
add_library(rookery_torch INTERFACE IMPORTED GLOBAL)
add_library(rookery::torch ALIAS rookery_torch)
# Imported: its headers are system headers, so their warnings are not ours.
target_include_directories(rookery_torch INTERFACE "${ROOKERY_LIBTORCH}/include"
                                                   "${ROOKERY_LIBTORCH}/include/torch/csrc/api/include")
target_compile_definitions(rookery_torch INTERFACE _GLIBCXX_USE_CXX11_ABI=1)
target_link_libraries(rookery_torch INTERFACE "${ROOKERY_TORCH_CPU_LIBRARY}" "${ROOKERY_C10_LIBRARY}")
set(ROOKERY_LIBTORCH_LIBDIR "${ROOKERY_LIBTORCH}/lib")
# <torch/torch.h> costs most of a compile; the libraries where many files include it parse it
# once, as a precompiled header.
function(rookery_torch_pch target)
  target_precompile_headers(${target} PRIVATE <torch/torch.h>)
endfunction()

# The CUDA part: built when LibTorch has it and the CUDA toolkit (its headers, for the CUDA
# runtime API the backend calls) is here; no GPU is needed to build or link it.
set(ROOKERY_HAVE_CUDA OFF)
if(NOT ROOKERY_CUDA STREQUAL "OFF")
  find_package(CUDAToolkit QUIET)
  find_library(ROOKERY_TORCH_CUDA_LIBRARY torch_cuda PATHS "${ROOKERY_LIBTORCH}/lib/cuda" NO_DEFAULT_PATH)
  find_library(ROOKERY_C10_CUDA_LIBRARY c10_cuda PATHS "${ROOKERY_LIBTORCH}/lib/cuda" NO_DEFAULT_PATH)
  if(CUDAToolkit_FOUND AND ROOKERY_TORCH_CUDA_LIBRARY AND ROOKERY_C10_CUDA_LIBRARY)
    set(ROOKERY_HAVE_CUDA ON)
    add_library(rookery_torch_cuda INTERFACE IMPORTED GLOBAL)
    add_library(rookery::torch_cuda ALIAS rookery_torch_cuda)
    target_link_libraries(rookery_torch_cuda INTERFACE rookery::torch "${ROOKERY_TORCH_CUDA_LIBRARY}"
                          "${ROOKERY_C10_CUDA_LIBRARY}" CUDA::cudart)
  elseif(ROOKERY_CUDA STREQUAL "ON")
    message(FATAL_ERROR "ROOKERY_CUDA=ON but the CUDA toolkit or LibTorch's CUDA part "
                        "(${ROOKERY_LIBTORCH}/lib/cuda) was not found")
  endif()
endif()

if(ROOKERY_BUILD_GUI OR ROOKERY_BUILD_TESTS)
  set(_qt_components Core Network)
  if(ROOKERY_BUILD_GUI)
    list(APPEND _qt_components Gui Widgets Charts Svg LinguistTools)
  endif()
  if(ROOKERY_BUILD_TESTS)
    list(APPEND _qt_components Test)
  endif()
  find_package(Qt6 6.4 REQUIRED COMPONENTS ${_qt_components})
  qt_standard_project_setup()
endif()
