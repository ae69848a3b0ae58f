/* The bfloat16 type of NVSHMEM's host prototypes, for bindgen only (see cuda.h). */
#pragma once
typedef struct __nv_bfloat16 { unsigned short x; } __nv_bfloat16;
