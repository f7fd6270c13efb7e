# Run by cpack after it installed (and stripped) the programs into its staging folder, before
# it packs them (CPACK_PRE_BUILD_SCRIPTS): drops the sections dh_strip drops too, the
# compilers' .comment version strings and .note, which no one reads at run time.
file(GLOB _programs "${CPACK_TEMPORARY_DIRECTORY}${CPACK_PACKAGING_INSTALL_PREFIX}/bin/*")
foreach(program IN LISTS _programs)
  execute_process(COMMAND "${CPACK_ROOKERY_STRIP}" --remove-section=.comment --remove-section=.note "${program}"
    RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "strip ${program}: ${_err}")
  endif()
endforeach()
# LibTorch's libraries as PyTorch ships them keep their symbol tables; like dh_strip, keep only
# what the dynamic linker needs.
# In rookery-cuda, LibTorch's CUDA part too; NVIDIA's libraries are packed as NVIDIA ships them.
file(GLOB _private_libs "${CPACK_TEMPORARY_DIRECTORY}${CPACK_PACKAGING_INSTALL_PREFIX}/lib/rookery/*.so*"
     "${CPACK_TEMPORARY_DIRECTORY}${CPACK_PACKAGING_INSTALL_PREFIX}/lib/rookery/cuda/libtorch*.so"
     "${CPACK_TEMPORARY_DIRECTORY}${CPACK_PACKAGING_INSTALL_PREFIX}/lib/rookery/cuda/libc10*.so"
     "${CPACK_TEMPORARY_DIRECTORY}${CPACK_PACKAGING_INSTALL_PREFIX}/lib/rookery/cuda/libcaffe2*.so")
foreach(lib IN LISTS _private_libs)
  execute_process(COMMAND "${CPACK_ROOKERY_STRIP}" --strip-unneeded --remove-section=.comment
                          --remove-section=.note "${lib}"
    RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "strip ${lib}: ${_err}")
  endif()
endforeach()
