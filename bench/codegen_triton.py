"""Compiles Triton's tutorial-03 matmul (bf16 in, f32 accumulate) or a 1-D copy for one config
and NVIDIA target without torch or a GPU, for `cargo bench --bench codegen`.

usage: codegen_triton.py mm|copy BM BN BK WARPS ARCH OUT_DIR
Writes OUT_DIR/<kernel>.cubin and .ptx and prints one JSON line: shared memory, cold and
cached compile seconds, wall and CPU (this process and the tools it waited for, e.g. ptxas). Arguments are specialized as `triton.jit` does for contiguous
matrices of sizes divisible by 16: pointers and integers 16-divisible, unit strides constant."""
import json, os, resource, sys, tempfile, time

kind, bm, bn, bk, warps, arch, out = sys.argv[1], *map(int, sys.argv[2:7]), sys.argv[7]
os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="weft-codegen-triton-")
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def mm(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GM: tl.constexpr):
    pid = tl.program_id(0)
    nm, nn = tl.cdiv(M, BM), tl.cdiv(N, BN)
    group = pid // (GM * nn)
    first = group * GM
    gsz = min(nm - first, GM)
    pm = first + (pid % (GM * nn)) % gsz
    pn = (pid % (GM * nn)) // gsz
    rm = (pm * BM + tl.arange(0, BM)) % M
    rn = (pn * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    pa = a + rm[:, None] * sam + rk[None, :] * sak
    pb = b + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        x = tl.load(pa, mask=rk[None, :] < K - k * BK, other=0.0)
        y = tl.load(pb, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(x, y, acc)
        pa += BK * sak
        pb += BK * sbk
    om = pm * BM + tl.arange(0, BM)
    on = pn * BN + tl.arange(0, BN)
    tl.store(c + om[:, None] * scm + on[None, :] * scn, acc.to(tl.bfloat16), mask=(om[:, None] < M) & (on[None, :] < N))


@triton.jit
def copy(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y + offs, tl.load(x + offs, mask=mask), mask=mask)


DIV16 = [["tt.divisibility", 16]]
if kind == "mm":
    names = mm.arg_names[:12]
    ones = ("sak", "sbn", "scn")
    sig = {n: ("*bf16" if n in "abc" else "constexpr" if n in ones else "i32") for n in names}
    sig.update({n: "constexpr" for n in ("BM", "BN", "BK", "GM")})
    consts = {n: 1 for n in ones} | {"BM": bm, "BN": bn, "BK": bk, "GM": 8}
    attrs = {(i,): DIV16 for i, n in enumerate(names) if n not in ones}
    src = ASTSource(fn=mm, signature=sig, constexprs=consts, attrs=attrs)
else:
    src = ASTSource(fn=copy, signature={"x": "*bf16", "y": "*bf16", "n": "i32", "BLOCK": "constexpr"},
                    constexprs={"BLOCK": bm}, attrs={(0,): DIV16, (1,): DIV16, (2,): DIV16})
target = GPUTarget("cuda", arch, 32)
opts = {"num_warps": warps, "num_stages": 3 if kind == "mm" else 1}


def cpu():
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + c.ru_utime + c.ru_stime


def timed():
    t, c = time.perf_counter(), cpu()
    k = triton.compile(src, target=target, options=opts)
    return k, time.perf_counter() - t, cpu() - c


k, cold, cold_cpu = timed()
k, cached, cached_cpu = timed()
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, f"{kind}.cubin"), "wb") as f:
    f.write(k.asm["cubin"])
with open(os.path.join(out, f"{kind}.ptx"), "w") as f:
    f.write(k.asm["ptx"])
print(json.dumps({"name": k.metadata.name, "shared": k.metadata.shared, "cold": cold, "cold_cpu": cold_cpu,
                  "cached": cached, "cached_cpu": cached_cpu}))
