# The Debian package (cpack -G DEB in the build folder): the three programs, man pages,
# desktop integration, systemd units and the demo job, under /usr. Dependencies on Debian's
# shared libraries come from dpkg-shlibdeps; what it cannot see is listed here.
set(_linux "${CMAKE_CURRENT_LIST_DIR}")
set(_man "${CMAKE_CURRENT_LIST_DIR}/../man")

# LibTorch's CPU part, private to Rookery, in /usr/lib/rookery: the node links it and finds it
# through its RUNPATH. (libcudart and libcupti are there because libtorch_cpu names them; a CPU
# run loads no driver and no GPU library.) LibTorch's CUDA part and the backend module that
# loads it (model/cuda_backend) are the rookery-cuda package (cuda-package.cmake): without it a
# node computes on the CPU and says why.
set(ROOKERY_PRIVATE_LIBDIR "lib/rookery")
install(FILES
  "${ROOKERY_LIBTORCH_LIBDIR}/libtorch_cpu.so" "${ROOKERY_LIBTORCH_LIBDIR}/libc10.so"
  "${ROOKERY_LIBTORCH_LIBDIR}/libgomp.so.1" "${ROOKERY_LIBTORCH_LIBDIR}/libcudart.so.13"
  "${ROOKERY_LIBTORCH_LIBDIR}/libcupti.so.13"
  DESTINATION "${ROOKERY_PRIVATE_LIBDIR}"
  PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
foreach(program IN ITEMS rookery-node rookery-coordinator rookery)
  if(TARGET ${program})
    set_target_properties(${program} PROPERTIES INSTALL_RPATH "$ORIGIN/../${ROOKERY_PRIVATE_LIBDIR}")
  endif()
endforeach()
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS
    "${CMAKE_INSTALL_PREFIX}/${ROOKERY_PRIVATE_LIBDIR};${ROOKERY_LIBTORCH_LIBDIR}")

# Desktop entry (its name is the app's QGuiApplication::desktopFileName), AppStream, icons.
install(FILES "${_linux}/org.rookery.Rookery.desktop" DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
install(FILES "${_linux}/org.rookery.Rookery.metainfo.xml" DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo")
install(FILES "${PROJECT_SOURCE_DIR}/resources/icons/rookery.svg"
  DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps" RENAME org.rookery.Rookery.svg)
foreach(state IN ITEMS contributing paused error)
  install(FILES "${PROJECT_SOURCE_DIR}/resources/icons/tray-${state}.svg"
    DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/status" RENAME org.rookery.Rookery-${state}.svg)
endforeach()

# systemd: a user unit for a headless node, a system unit for the coordinator (not enabled).
install(FILES "${_linux}/rookery-node.service" DESTINATION "lib/systemd/user")
install(FILES "${_linux}/rookery-coordinator.service" DESTINATION "lib/systemd/system")

# Man pages, from scdoc sources; gzip -n keeps the package reproducible.
find_program(SCDOC_EXECUTABLE scdoc)
set(_man_outputs)
if(SCDOC_EXECUTABLE)
  foreach(page IN ITEMS rookery.1 rookery-node.1 rookery-coordinator.1)
    set(_out "${CMAKE_CURRENT_BINARY_DIR}/man/${page}.gz")
    add_custom_command(OUTPUT "${_out}"
      COMMAND ${CMAKE_COMMAND} -E make_directory "${CMAKE_CURRENT_BINARY_DIR}/man"
      COMMAND sh -c "set -e; \"$0\" < \"$1\" > \"$2.tmp\"; gzip -9n -c \"$2.tmp\" > \"$2\"; rm -f \"$2.tmp\""
              "${SCDOC_EXECUTABLE}" "${_man}/${page}.scd" "${_out}"
      DEPENDS "${_man}/${page}.scd"
      COMMENT "Man page ${page}"
      VERBATIM)
    list(APPEND _man_outputs "${_out}")
  endforeach()
  install(FILES ${_man_outputs} DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
  set(CPACK_ROOKERY_MAN_PAGES ON)
else()
  message(STATUS "scdoc not found: no man pages, and `cpack -G DEB` refuses to build the package (apt install scdoc)")
  set(CPACK_ROOKERY_MAN_PAGES OFF)
endif()

# /usr/share/doc/rookery: copyright and the Debian changelog.
set(_changelog "${CMAKE_CURRENT_BINARY_DIR}/changelog.Debian.gz")
add_custom_command(OUTPUT "${_changelog}"
  COMMAND sh -c "gzip -9n -c \"$0\" > \"$1\"" "${_linux}/changelog" "${_changelog}"
  DEPENDS "${_linux}/changelog"
  VERBATIM)
add_custom_target(rookery_package_docs ALL DEPENDS ${_man_outputs} "${_changelog}")
install(FILES "${_linux}/copyright" "${_changelog}" DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/doc/rookery")
# The lintian tags that do not apply to this package, each with its reason.
install(FILES "${_linux}/rookery.lintian-overrides" DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/lintian/overrides"
  RENAME rookery)

set(CPACK_GENERATOR "DEB")
set(CPACK_DEBIAN_FILE_NAME "DEB-DEFAULT")
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The icons are SVG, drawn by Qt's SVG icon-engine
# plugin (libqt6svg6; no symbol of it is linked). Qt loads its Wayland platform plugin and its own
# translations (standard buttons and dialogs) at run time; Rookery's are inside the program.
# fortunes: the demo job (share/rookery/demo/demo-job.json) trains on Debian's English fortune
# cookies where that package puts them, /usr/share/games/fortunes; no copy of them is shipped.
# libjs-chart.js: the coordinator's web dashboard draws its charts with Debian's Chart.js, read
# from /usr/share/javascript/chart.js at start (libcpp-httplib, its server, comes from shlibdeps).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6svg6, fortunes, libjs-chart.js")
# fonts-noto-cjk: the Simplified Chinese translation needs a CJK font (Debian installs none by default).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-wayland, qt6-translations-l10n, fonts-noto-cjk")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${_linux}/postinst;${_linux}/prerm;${_linux}/postrm")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)
set(CPACK_PROJECT_CONFIG_FILE "${_linux}/cpack-options.cmake")
set(CPACK_PRE_BUILD_SCRIPTS "${_linux}/strip-sections.cmake")
set(CPACK_ROOKERY_STRIP "${CMAKE_STRIP}")

# rookery-cuda, the GPU part, a package of its own (CPackConfig-cuda.cmake).
include("${_linux}/cuda-package.cmake")
