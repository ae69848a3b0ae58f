/* What weft binds of NVSHMEM's host library (see build.rs). */
#include "nvshmem_host.h"
