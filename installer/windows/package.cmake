# Windows: an NSIS installer (cpack -G NSIS, needs NSIS 3 on PATH). It cannot be built on
# the Debian machines this project is developed on; it is kept correct on paper.
#
# Layout under the install folder (C:\Program Files\Rookery):
#   bin\rookery.exe, rookery-node.exe, rookery-coordinator.exe
#   bin\*.dll       Qt (windeployqt: DLLs, platform/style/icon-engine plugins, translations),
#                   every other DLL the programs load (LibTorch, ZeroMQ, protobuf, SQLite,
#                   spdlog, fmt, ...), found by install(RUNTIME_DEPENDENCY_SET) in the
#                   folders of CMAKE_PREFIX_PATH / vcpkg, and the MSVC runtime
#   share\rookery\demo\   the demo job
# User data stays in %LOCALAPPDATA% (QStandardPaths, core/net/paths), never in Program Files.

# Qt: windeployqt next to rookery.exe.
if(TARGET rookery)
  qt_generate_deploy_app_script(TARGET rookery FILENAME_VARIABLE _rookery_deploy_script NO_UNSUPPORTED_PLATFORM_ERROR)
  install(SCRIPT "${_rookery_deploy_script}")
endif()

# Everything else the three programs link (app/CMakeLists.txt puts them in this set).
set(_dll_dirs)
foreach(prefix IN LISTS CMAKE_PREFIX_PATH)
  list(APPEND _dll_dirs "${prefix}/bin" "${prefix}/lib")
endforeach()
if(TORCH_INSTALL_PREFIX)
  list(APPEND _dll_dirs "${TORCH_INSTALL_PREFIX}/lib")
endif()
if(DEFINED VCPKG_INSTALLED_DIR AND DEFINED VCPKG_TARGET_TRIPLET)
  list(APPEND _dll_dirs "${VCPKG_INSTALLED_DIR}/${VCPKG_TARGET_TRIPLET}/bin")
endif()
install(RUNTIME_DEPENDENCY_SET rookery_runtime
  PRE_EXCLUDE_REGEXES "^api-ms-" "^ext-ms-" "^[Qq]t6"  # the OS's API sets; Qt is windeployqt's
  POST_EXCLUDE_REGEXES "[Ss]ystem32/" "[Ss]ys[Ww][Oo][Ww]64/"
  DIRECTORIES ${_dll_dirs}
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")

# The Visual C++ runtime, beside the programs (no separate redistributable to install).
set(CMAKE_INSTALL_SYSTEM_RUNTIME_DESTINATION "${CMAKE_INSTALL_BINDIR}")
include(InstallRequiredSystemLibraries)

set(CPACK_GENERATOR "NSIS")
set(CPACK_NSIS_PACKAGE_NAME "Rookery")
set(CPACK_NSIS_DISPLAY_NAME "Rookery")
set(CPACK_NSIS_URL_INFO_ABOUT "${CPACK_PACKAGE_HOMEPAGE_URL}")
set(CPACK_NSIS_CONTACT "${CPACK_PACKAGE_CONTACT}")
set(CPACK_NSIS_INSTALLED_ICON_NAME "bin\\\\rookery.exe")
set(CPACK_NSIS_EXECUTABLES_DIRECTORY "${CMAKE_INSTALL_BINDIR}")
set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
set(CPACK_NSIS_MODIFY_PATH OFF)
# Start menu: "Rookery" (CPACK_PACKAGE_EXECUTABLES) starts bin\rookery.exe; the finish page
# offers to start it.
set(CPACK_NSIS_MUI_FINISHPAGE_RUN "rookery.exe")
set(CPACK_NSIS_MENU_LINKS "${CPACK_PACKAGE_HOMEPAGE_URL}" "Rookery website")
# Before removing the files: stop the user's node cleanly (it checkpoints), and take out the
# per-user autostart value the window writes (ui/autostart.cpp). Data in %LOCALAPPDATA% stays.
set(CPACK_NSIS_EXTRA_UNINSTALL_COMMANDS
  "ExecWait '\\\"$INSTDIR\\\\bin\\\\rookery-node.exe\\\" --stop'
   DeleteRegValue HKCU 'Software\\\\Microsoft\\\\Windows\\\\CurrentVersion\\\\Run' 'Rookery'")
