# Read by cpack for each generator (CPACK_PROJECT_CONFIG_FILE).
if(CPACK_GENERATOR STREQUAL "DEB" AND NOT CPACK_ROOKERY_MAN_PAGES)
  message(FATAL_ERROR "The Debian package needs its man pages: install scdoc (apt install scdoc), "
                      "then reconfigure and build again")
endif()
