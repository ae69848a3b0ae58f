# `python3 bench/gpu/gemm_vs_triton.py [DIR]` on a machine with one NVIDIA GPU, PyTorch and Triton:
# weft's GEMM cubins (made off the GPU by bench/gpu/gemm_cubins.sh, weft + ptxas) against Triton's
# tutorial-03 matmul at the same tile configs and torch.matmul (cuBLAS), bf16 in / f32 acc / bf16
# out, M=N=K=4096 and 8192. Every weft result is checked against torch's f32 matmul before it is
# timed (CUDA events, 3 warm-ups, mean of 10). weft's kernel loops over tiles, so it runs both
# persistent (SMs x the CTAs per SM it asks ptxas for) and with one tile per CTA.
import ctypes, os, sys, time, torch, triton, triton.language as tl
here = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "cubins")
read = lambda name: open(os.path.join(here, name)).read().strip()
torch.cuda.init(); torch.zeros(1, device="cuda")
cu = ctypes.CDLL("libcuda.so.1")
def ck(r, what):
    if r != 0:
        s = ctypes.c_char_p(); cu.cuGetErrorString(r, ctypes.byref(s)); raise RuntimeError(f"{what}: {r} {s.value}")
props = torch.cuda.get_device_properties(0); sms = props.multi_processor_count
print(f"device: {props.name}, {sms} SMs, torch {torch.__version__}, triton {triton.__version__}", flush=True)

@triton.jit
def tmatmul(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GM: tl.constexpr):
    pid = tl.program_id(0); npm = tl.cdiv(M, BM); npn = tl.cdiv(N, BN)
    g = pid // (GM * npn); fm = g * GM; gs = min(npm - fm, GM)
    pm = fm + ((pid % (GM * npn)) % gs); pn = (pid % (GM * npn)) // gs
    om = (pm * BM + tl.arange(0, BM)) % M; on = (pn * BN + tl.arange(0, BN)) % N; ok = tl.arange(0, BK)
    ap = a + om[:, None] * sam + ok[None, :] * sak; bp = b + ok[:, None] * sbk + on[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        x = tl.load(ap, mask=ok[None, :] < K - k * BK, other=0.0); y = tl.load(bp, mask=ok[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(x, y, acc); ap += BK * sak; bp += BK * sbk
    cm = pm * BM + tl.arange(0, BM); cn = pn * BN + tl.arange(0, BN)
    tl.store(c + cm[:, None] * scm + cn[None, :] * scn, acc.to(tl.bfloat16), mask=(cm[:, None] < M) & (cn[None, :] < N))

# The TMA descriptors a cubin takes after its six arguments (`gNNN.tma`, written by
# gemm_cubins.sh from `weft compile`'s report): argument indices of the pointer, rows, columns
# and row stride (elements), the box, the element type and the swizzle span.
ELEM = {"f16": 6, "bf16": 9, "f32": 7}; ESIZE = {"f16": 2, "bf16": 2, "f32": 4}; SWZ = {0: 0, 32: 1, 64: 2, 128: 3}
def aligned64(size):
    # CUtensorMap is 64-byte aligned; ctypes in Python 3.12 cannot ask for that, so over-allocate.
    raw = ctypes.create_string_buffer(size + 64)
    return raw, ctypes.c_void_p((ctypes.addressof(raw) + 63) // 64 * 64)
def tensor_maps(file, words):
    path = os.path.join(here, file.replace(".cubin", ".tma"))
    maps = []
    for line in (open(path).read().split("\n") if os.path.exists(path) else []):
        if not line.strip(): continue
        ptr, rows, cols, ld, br, bc, e, sw = line.split()
        ptr, rows, cols, ld, br, bc, sw = map(int, (ptr, rows, cols, ld, br, bc, sw))
        raw, m = aligned64(128)
        dims = (ctypes.c_uint64 * 2)(words[cols], words[rows]); strides = (ctypes.c_uint64 * 1)(words[ld] * ESIZE[e])
        box = (ctypes.c_uint32 * 2)(bc, br); steps = (ctypes.c_uint32 * 2)(1, 1)
        ck(cu.cuTensorMapEncodeTiled(m, ELEM[e], 2, ctypes.c_void_p(words[ptr]), dims, strides, box, steps, 0, SWZ[sw], 2, 0), "cuTensorMapEncodeTiled")
        maps.append((raw, m))
    return maps

def timeit(f, iters):
    for _ in range(3): f()
    torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(iters): f()
    e.record(); torch.cuda.synchronize()
    return s.elapsed_time(e) / iters

configs = [(f"g{bm}.cubin", bm, bn, bk, w, 3, int(read(f"g{bm}.smem")), int(read(f"g{bm}.ctas"))) for (bm, bn, bk, w) in ((128, 128, 64, 8), (64, 64, 32, 4))]
rows = []
for (file, BM, BN, BK, warps, stages, smem, ctas) in configs:
    mod = ctypes.c_void_p(); ck(cu.cuModuleLoadData(ctypes.byref(mod), open(os.path.join(here, file), "rb").read()), "load " + file)
    fn = ctypes.c_void_p(); ck(cu.cuModuleGetFunction(ctypes.byref(fn), mod, b"gemm"), "fn")
    if smem: ck(cu.cuFuncSetAttribute(fn, 8, smem), "smem attr")
    for S in (4096, 8192):
        M = N = K = S
        torch.manual_seed(S)
        A = torch.randn(M, K, device="cuda", dtype=torch.bfloat16); B = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
        C = torch.full((M, N), float("nan"), device="cuda", dtype=torch.bfloat16)
        ref = (A.float() @ B.float())
        tiles = triton.cdiv(M, BM) * triton.cdiv(N, BN)
        for label, grid in (("persistent", min(tiles, sms * ctas)), ("one tile/CTA", tiles)):
            args = [ctypes.c_uint64(A.data_ptr()), ctypes.c_uint64(B.data_ptr()), ctypes.c_uint64(C.data_ptr()), ctypes.c_uint64(M), ctypes.c_uint64(N), ctypes.c_uint64(K)]
            maps = tensor_maps(file, [a.value for a in args])
            params = (ctypes.c_void_p * (6 + len(maps)))(*[ctypes.cast(ctypes.byref(a), ctypes.c_void_p) for a in args] + [m for (_, m) in maps])
            launch = lambda: ck(cu.cuLaunchKernel(fn, grid, 1, 1, 32 * warps, 1, 1, smem, None, params, None), "launch")
            try:
                C.fill_(float("nan")); launch(); torch.cuda.synchronize()
                err = ((C.float() - ref).abs().max() / ref.abs().max()).item()
                ok = err < 1e-2 and not torch.isnan(C).any().item()
                ms = timeit(launch, 10)
                rows.append(f"| weft {BM}x{BN}x{BK} w{warps} s{stages} ({label}, grid {grid}) | {S} | {'PASS' if ok else 'FAIL'} (rel err {err:.1e}) | {ms:.3f} | {2*M*N*K/ms/1e9:.1f} |")
            except Exception as ex:
                rows.append(f"| weft {BM}x{BN}x{BK} w{warps} ({label}) | {S} | ERROR {ex} | | |")
            print(rows[-1], flush=True)
        Ct = torch.empty_like(C)
        tgrid = (tiles,)
        f = lambda: tmatmul[tgrid](A, B, Ct, M, N, K, A.stride(0), A.stride(1), B.stride(0), B.stride(1), Ct.stride(0), Ct.stride(1), BM=BM, BN=BN, BK=BK, GM=8, num_warps=warps, num_stages=stages)
        try:
            f(); torch.cuda.synchronize(); err = ((Ct.float() - ref).abs().max() / ref.abs().max()).item()
            ms = timeit(f, 10); rows.append(f"| triton {triton.__version__} {BM}x{BN}x{BK} w{warps} s{stages} | {S} | rel err {err:.1e} | {ms:.3f} | {2*M*N*K/ms/1e9:.1f} |")
        except Exception as ex:
            rows.append(f"| triton {BM}x{BN}x{BK} | {S} | ERROR {ex} | | |")
        print(rows[-1], flush=True)
        if BM == 128:
            ms = timeit(lambda: torch.matmul(A, B), 10); rows.append(f"| torch.matmul (cuBLAS) | {S} | reference | {ms:.3f} | {2*M*N*K/ms/1e9:.1f} |"); print(rows[-1], flush=True)
        del A, B, C, ref
print("\n| kernel | M=N=K | check | ms | TFLOP/s |\n|---|---|---|---|---|\n" + "\n".join(rows))
