# Read by cpack for each generator (CPACK_PROJECT_CONFIG_FILE).
if(CPACK_GENERATOR STREQUAL "DEB" AND NOT CPACK_ROOKERY_MAN_PAGES)
  message(FATAL_ERROR "The Debian package needs its man pages: install scdoc (apt install scdoc), "
                      "then reconfigure and build again")
endif()
# rookery-cuda (installer/linux/cuda-package.cmake): it needs the very rookery it was built with,
# whose libtorch_cpu and libc10 its module links and whose interface it speaks.
if(CPACK_ROOKERY_CUDA_PACKAGE)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "rookery (= ${CPACK_PACKAGE_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE}), libc6, libstdc++6, libgcc-s1, zlib1g")
endif()
