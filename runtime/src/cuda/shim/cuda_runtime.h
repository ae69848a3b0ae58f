/* What NVSHMEM's host headers take from cuda_runtime.h, for bindgen only (see cuda.h). */
#pragma once
#include "cuda.h"
typedef CUstream cudaStream_t;
typedef int cudaError_t;
typedef struct dim3 { unsigned int x, y, z; } dim3;
typedef struct double2 { double x, y; } double2;
#define __host__
#define __device__
#define __global__
#define __forceinline__ inline
