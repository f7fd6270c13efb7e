# macOS: Rookery.app in a DMG (cpack -G DragNDrop). It cannot be built on the Debian
# machines this project is developed on; it is kept correct on paper.
#
# Rookery.app/Contents/
#   Info.plist                      from Info.plist.in (bundle id org.rookery.Rookery)
#   MacOS/Rookery, rookery-node, rookery-coordinator   (the window starts the node beside it)
#   Frameworks/                     Qt (macdeployqt) and every other dylib the programs load
#   PlugIns/                        Qt's plugins (macdeployqt)
#   share/rookery/demo/             the demo job (where the first run looks, beside MacOS/)
#   Resources/org.rookery.node.plist  a LaunchAgent that runs rookery-node in the background
# The window's "Start with my session" writes ~/Library/LaunchAgents/org.rookery.Rookery.plist
# (ui/autostart.cpp); user data stays in ~/Library/Application Support and
# ~/.local/share/rookery, never in the bundle.

# Qt: macdeployqt on the bundle (frameworks, plugins, and the window's own dylibs).
if(TARGET rookery)
  qt_generate_deploy_app_script(TARGET rookery FILENAME_VARIABLE _rookery_deploy_script NO_UNSUPPORTED_PLATFORM_ERROR)
  install(SCRIPT "${_rookery_deploy_script}")
endif()

# The headless programs' dylibs (LibTorch, ZeroMQ, protobuf, ...) into Frameworks, where
# their @executable_path/../Frameworks rpath (app/CMakeLists.txt) finds them.
set(_dylib_dirs)
foreach(prefix IN LISTS CMAKE_PREFIX_PATH)
  list(APPEND _dylib_dirs "${prefix}/lib")
endforeach()
if(TORCH_INSTALL_PREFIX)
  list(APPEND _dylib_dirs "${TORCH_INSTALL_PREFIX}/lib")
endif()
install(RUNTIME_DEPENDENCY_SET rookery_runtime
  PRE_EXCLUDE_REGEXES "^/usr/lib/" "^/System/" "Qt[A-Za-z]*\\.framework"
  POST_EXCLUDE_REGEXES "^/usr/lib/" "^/System/"
  DIRECTORIES ${_dylib_dirs}
  LIBRARY DESTINATION "Rookery.app/Contents/Frameworks"
  FRAMEWORK DESTINATION "Rookery.app/Contents/Frameworks")

install(FILES "${CMAKE_CURRENT_LIST_DIR}/org.rookery.node.plist" DESTINATION "Rookery.app/Contents/Resources")

set(CPACK_GENERATOR "DragNDrop")
set(CPACK_DMG_VOLUME_NAME "Rookery")
set(CPACK_DMG_FORMAT "UDZO")
set(CPACK_PACKAGE_FILE_NAME "Rookery-${PROJECT_VERSION}")
