/* The 16-bit float type of NVSHMEM's host prototypes, for bindgen only (see cuda.h). */
#pragma once
typedef struct __half { unsigned short x; } __half;
typedef __half half;
