# Debian packages (CPack's DEB generator), one per install component:
#   libgac0           libgac.so.0 and libgac-llvm.so (the GPU emitters' LLVM 19 side)
#   libgac-dev        headers, libgac.a, the CMake package (gac::gac) and gac.pc
#   gac-tools         gac-opt, gac-as, gac-cc, gac-isa-check
#   gac-opencl-layer  libgac-layer.so, the OpenCL layer
# Build them from a Release tree configured with -DCMAKE_INSTALL_PREFIX=/usr:
#   cmake --build BUILD --target package-deb     (BUILD/packages/*.deb)
# smoke_test.sh (here) unpacks them and runs the installed tools and layer.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gac)
set(CPACK_PACKAGE_VENDOR "gac")
set(CPACK_PACKAGE_CONTACT "gac maintainers <gac@localhost>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "asynchronous copies in SPIR-V: 2D/3D work-group copies for any OpenCL device")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/gac/gac")
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev tools layer)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Shared-library dependencies from the binaries (dpkg-shlibdeps); the
# programs gac runs as subprocesses are named below.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libgac0)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
    "gac library: async copies in SPIR-V\n Reads, writes, builds, validates and lowers SPIR-V modules that use\n NonSemantic.Codeplay.GroupAsyncCopies (cl_khr_extended_async_copies), and\n emits PTX and AMDGCN (libgac-llvm.so, opened on first use).")
# The GPU emitters run llvm-spirv-15 and, for AMDGCN, ld.lld-19.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "llvm-spirv-15, lld-19")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libgac-dev)
set(CPACK_COMPONENT_DEV_DEPENDS runtime)
set(CPACK_DEBIAN_DEV_DESCRIPTION
    "gac library: development files\n Headers, the static library, the CMake package (find_package(gac),\n gac::gac) and gac.pc.")
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "spirv-headers")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME gac-tools)
set(CPACK_COMPONENT_TOOLS_DEPENDS runtime)
set(CPACK_DEBIAN_TOOLS_DESCRIPTION
    "gac tools: gac-opt, gac-as, gac-cc, gac-isa-check\n gac-opt (spirv-opt style: validate, print, raise, lower, pipeline, emit PTX\n or AMDGCN), gac-as, gac-cc (OpenCL C with the 2D/3D copy builtins) and\n gac-isa-check (AMDGCN code objects' waits).")
# gac-cc runs clang-15 and llvm-spirv-15; --emit=ptx's checks use ptxas when found.
set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS "clang-15, llvm-spirv-15, spirv-tools")
set(CPACK_DEBIAN_TOOLS_PACKAGE_RECOMMENDS "lld-19")

set(CPACK_DEBIAN_LAYER_PACKAGE_NAME gac-opencl-layer)
set(CPACK_COMPONENT_LAYER_DEPENDS runtime)
set(CPACK_DEBIAN_LAYER_DESCRIPTION
    "gac OpenCL layer: 2D/3D async copies for unmodified host programs\n Puts gac in front of an OpenCL driver (PoCL, NVIDIA's), so that unmodified\n host programs can use SPIR-V and OpenCL C with 2D/3D async copies. Enable it\n with OPENCL_LAYERS=/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/libgac-layer.so.")
# The layer is loaded by ocl-icd, lowers with libgac, compiles OpenCL C with
# clang-15 and llvm-spirv-15 and links modules with spirv-link.
set(CPACK_DEBIAN_LAYER_PACKAGE_DEPENDS "ocl-icd-libopencl1, clang-15, llvm-spirv-15, spirv-tools")
set(CPACK_DEBIAN_LAYER_PACKAGE_RECOMMENDS "pocl-opencl-icd")

include(CPack)
add_custom_target(package-deb
  COMMAND ${CMAKE_CPACK_COMMAND} --config ${PROJECT_BINARY_DIR}/CPackConfig.cmake -G DEB
  DEPENDS gac_static gac_shared gac-opt gac-as gac-cc gac-isa-check
          $<TARGET_NAME_IF_EXISTS:gac_llvm_library> $<TARGET_NAME_IF_EXISTS:gac_layer>
  WORKING_DIRECTORY ${PROJECT_BINARY_DIR}
  COMMENT "Debian packages in ${PROJECT_BINARY_DIR}/packages"
  USES_TERMINAL)
