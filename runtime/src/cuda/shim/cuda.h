/* Declarations that NVSHMEM's host headers take from CUDA's cuda.h, for bindgen only: the
 * driver handles are opaque pointers here as in CUDA. weft binds no CUDA function through
 * these; the driver itself is reached through cudarc. */
#pragma once
typedef struct CUmod_st *CUmodule;
typedef struct CUlib_st *CUlibrary;
typedef struct CUstream_st *CUstream;
typedef struct CUctx_st *CUcontext;
typedef unsigned long long CUdeviceptr;
typedef int CUdevice;
