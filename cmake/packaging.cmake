# Debian packages (`cpack -G DEB` in the build tree), one an install component of CMakeLists.txt:
#   libclscan0         the shared library and the kernel sources it loads at run time
#   libclscan-dev      headers, the static library, the CMake package and pkg-config files
#   clscan-tools       clscan-info, clscan-bench, clscan-demo and their man pages
#   libclscan-mpi0, libclscan-mpi-dev   clscan_mpi, where MPI was found
# Installed at /usr; the library finds its kernels from where it lies (../share/clscan/cl), so the
# files may also be unpacked under any root. tests/packages.cmake builds them and runs the consumer
# program against them.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME clscan)
set(CPACK_PACKAGE_VENDOR "the clscan developers")
set(CPACK_PACKAGE_CONTACT "clscan developers <clscan@example.org>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)   # libc, MPI and the rest from dpkg-shlibdeps
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)   # a shlibs file for the libraries' users
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
# libclscan_mpi needs libclscan.so.0 of the package beside it (its dependency is the component's below).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "${CMAKE_BINARY_DIR}")
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_COMPONENTS_ALL lib dev tools)
if(MPI_C_FOUND)
  list(APPEND CPACK_COMPONENTS_ALL mpi mpidev)
endif()

# A synopsis line, then the long description (CPack indents its lines; at most 80 columns there).
set(CPACK_COMPONENT_LIB_DESCRIPTION "parallel prefix scans and the primitives built on them for OpenCL
clscan runs scans, reductions, compaction, radix sort, summed-area tables,
segmented and by-key scans, runs, partitions and histograms on any OpenCL 1.2
device: NVIDIA, AMD and Intel GPUs, and CPUs through PoCL. This package holds
the shared library and the OpenCL C sources it compiles for each device.")
set(CPACK_COMPONENT_DEV_DESCRIPTION "clscan: development files
Headers, the static library, and the files that find clscan from CMake
(find_package(clscan)) and from pkg-config (clscan).")
set(CPACK_COMPONENT_TOOLS_DESCRIPTION "clscan: device listing, self-check and benchmark
clscan-info lists the OpenCL devices and checks clscan on them; clscan-bench
times clscan against the copy roof of the same device; clscan-demo runs a scan.")
set(CPACK_COMPONENT_MPI_DESCRIPTION "clscan over MPI: scans and reductions of data spread over ranks
One device a rank; the ranks' totals are combined on the devices.")
set(CPACK_COMPONENT_MPIDEV_DESCRIPTION "clscan over MPI: development files
The header, the static library and the pkg-config file of clscan_mpi.")

set(CPACK_DEBIAN_LIB_PACKAGE_NAME libclscan0)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libclscan-dev)
set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME clscan-tools)
set(CPACK_DEBIAN_MPI_PACKAGE_NAME libclscan-mpi0)
set(CPACK_DEBIAN_MPIDEV_PACKAGE_NAME libclscan-mpi-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_MPIDEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION utils)
# The OpenCL loader comes from dpkg-shlibdeps; an ICD to run on is recommended (PoCL runs anywhere).
set(CPACK_DEBIAN_LIB_PACKAGE_RECOMMENDS "pocl-opencl-icd | opencl-icd")
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "ocl-icd-opencl-dev | opencl-dev, opencl-c-headers")
set(CPACK_COMPONENT_DEV_DEPENDS lib)
set(CPACK_COMPONENT_TOOLS_DEPENDS lib)   # the tools link clscan statically but load its kernels
set(CPACK_COMPONENT_MPI_DEPENDS lib)
set(CPACK_COMPONENT_MPIDEV_DEPENDS mpi dev)
# Every package's copyright file and (native) changelog, and the libraries' ldconfig trigger.
string(TIMESTAMP clscan_deb_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
configure_file(${CMAKE_CURRENT_LIST_DIR}/debian-changelog.in ${CMAKE_CURRENT_BINARY_DIR}/deb/changelog @ONLY)
file(ARCHIVE_CREATE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/deb/changelog.gz PATHS ${CMAKE_CURRENT_BINARY_DIR}/deb/changelog
     FORMAT raw COMPRESSION GZip COMPRESSION_LEVEL 9)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/deb/triggers "activate-noawait ldconfig\n")
# (Only in the packages: a plain cmake --install leaves them out.)
foreach(component IN LISTS CPACK_COMPONENTS_ALL)
  string(TOUPPER ${component} upper)
  set(doc ${CMAKE_INSTALL_DATADIR}/doc/${CPACK_DEBIAN_${upper}_PACKAGE_NAME})
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/debian-copyright DESTINATION ${doc} RENAME copyright
          COMPONENT ${component} EXCLUDE_FROM_ALL)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/deb/changelog.gz DESTINATION ${doc} COMPONENT ${component}
          EXCLUDE_FROM_ALL)
endforeach()
set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_BINARY_DIR}/deb/triggers)
set(CPACK_DEBIAN_MPI_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_BINARY_DIR}/deb/triggers)
include(CPack)
