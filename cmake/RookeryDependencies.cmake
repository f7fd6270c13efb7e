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

# LibTorch: Debian installs it as a regular CMake package.
find_package(Torch REQUIRED)
# Torch's exported flags add -D_GLIBCXX_USE_CXX11_ABI etc.; keep them on torch users only.

set(ROOKERY_HAVE_CUDA OFF)
if(NOT ROOKERY_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER AND TORCH_CUDA_LIBRARIES)
    enable_language(CUDA)
    set(ROOKERY_HAVE_CUDA ON)
  elseif(ROOKERY_CUDA STREQUAL "ON")
    message(FATAL_ERROR "ROOKERY_CUDA=ON but nvcc or a CUDA-enabled LibTorch was not found")
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
