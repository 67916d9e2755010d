# Sourced (bash) on a machine with NVIDIA's driver: registers NVIDIA's OpenCL
# library with the ICD loader through an OCL_ICD_VENDORS folder (the GPU
# machine does not list it in /etc/OpenCL/vendors) and sets NVCL_CFLAGS and
# NVCL_LIBS for building nvcl programs against CUDA's CL headers and loader.
cuda=${CUDA_HOME:-/usr/local/cuda}
nv_lib=$(ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 /usr/lib64/libnvidia-opencl.so.1 \
  /usr/lib/libnvidia-opencl.so.1 2>/dev/null | head -n 1)
[ -n "$nv_lib" ] || nv_lib=$(find / -name 'libnvidia-opencl.so.1' -not -path '/proc/*' 2>/dev/null | head -n 1)
if [ -z "$nv_lib" ]; then
  echo "nvidia_opencl.sh: no libnvidia-opencl.so.1 on this machine" >&2
  return 1 2>/dev/null || exit 1
fi
export OCL_ICD_VENDORS=${NVCL_ICD_DIR:-/tmp/gac-nvidia-icd}
mkdir -p "$OCL_ICD_VENDORS"
echo "$nv_lib" > "$OCL_ICD_VENDORS/nvidia.icd"
NVCL_CFLAGS="-I$cuda/include"
if ls "$cuda"/lib64/libOpenCL.so* > /dev/null 2>&1; then
  NVCL_LIBS="-L$cuda/lib64 -Wl,-rpath,$cuda/lib64 -l:$(basename "$(ls "$cuda"/lib64/libOpenCL.so* | head -n 1)")"
else
  NVCL_LIBS="-l:libOpenCL.so.1"
fi
