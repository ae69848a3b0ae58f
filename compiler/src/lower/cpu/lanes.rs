//! Loops over stack copies of a tile's lanes and mask bytes, lane `j` moved only where its
//! mask byte is set: tiles of arbitrary addresses (`Addr::Lanes`) stored, and 8- and 16-bit
//! ones loaded, this way, and the mixed chunks of a partly masked contiguous 16-bit store.
//!
//! Why not `llvm.masked.scatter` / `gather`: x86 before AVX-512 has no scatter and no 8- or
//! 16-bit gather, so LLVM expands them lane by lane into a branch per lane. At 2048 lanes that
//! took over 200 s to compile on an AVX2 host (`gemm_ar` bf16, `METHOD=3`) against 5 s where
//! AVX-512 has the instructions. Those expansions run lane by lane anyway; the loop does the
//! same work with a body of constant size, so the compile time no longer grows with the tile.
//! Whether LLVM expands a 32- or 64-bit gather too depends on the CPU model (AVX2 has the
//! instruction, but models not tuned for fast gathers, `x86-64-v3` and AMD's among them, still
//! get the expansion: 2048 f32 lanes took minutes), so only small ones keep `masked.gather`.
//! A masked i16 store has the same expansion before AVX-512BW (seconds at 1024 lanes).

use super::emit::Cx;
use crate::ir::Scalar;

/// The most lanes a 32- or 64-bit gather keeps `llvm.masked.gather` for: an expanded one costs
/// compile time by the lane.
const GATHER_MAX: usize = 64;

/// Lanes per chunk of a partly masked 16-bit store: 16 bytes, one SSE store, and its mask
/// bytes one i64.
const CHUNK_16: usize = 8;

impl Cx<'_> {
    /// Whether a gather of `n` lanes of `elem` goes through [`Cx::lanes_load`].
    pub(crate) fn gathers_by_loop(elem: Scalar, n: usize) -> bool {
        elem.bytes() < 4 || n > GATHER_MAX
    }

    /// Stores lane `j` of `v` (`n` lanes of `elem`) to address lane `j` of `a`
    /// (`vector<n x i64>`) wherever `mask` is set.
    pub(crate) fn lanes_store(&mut self, a: &str, v: &str, elem: Scalar, n: usize, mask: Option<&str>) {
        let (pbuf, mbuf) = self.lane_addrs_and_mask(a, n, mask);
        let vbuf = self.to_stack(v, elem, n);
        self.each_lane(n, mbuf.as_deref(), |cx, j| {
            let p = cx.lane_addr(&pbuf, j);
            let src = cx.gep(&vbuf, j, elem);
            cx.copy_elem(&src, &p, elem);
        });
    }

    /// Loads `n` lanes of `elem` from the addresses in `a` where `mask` is set, `other` (a
    /// vector, or zero) elsewhere; returns the vector.
    pub(crate) fn lanes_load(&mut self, a: &str, elem: Scalar, n: usize, mask: Option<&str>, other: Option<&str>) -> String {
        let vt = format!("vector<{n}x{}>", elem.mlir());
        let (pbuf, mbuf) = self.lane_addrs_and_mask(a, n, mask);
        let fill = other.map(str::to_string).unwrap_or_else(|| self.zero(&vt));
        let rbuf = self.to_stack(&fill, elem, n);
        self.each_lane(n, mbuf.as_deref(), |cx, j| {
            let p = cx.lane_addr(&pbuf, j);
            let dst = cx.gep(&rbuf, j, elem);
            cx.copy_elem(&p, &dst, elem);
        });
        let r = self.fresh();
        self.line(&format!("{r} = llvm.load {rbuf} {{alignment = 64 : i64}} : !llvm.ptr -> {vt}"));
        r
    }

    /// A masked store of 16-bit lanes: one vector store when every lane is in, nothing when
    /// none is, else [`Cx::chunked_store_16`]. Not LLVM's masked i16 store (see the module
    /// docs), and not whole 32-bit pairs either: that would race with a neighbour's writer.
    pub(crate) fn masked_store_16(&mut self, p: &str, v: &str, m: &str, n: usize) {
        let (all, any) = (self.fresh(), self.fresh());
        self.line(&format!("{all} = vector.reduction <and>, {m} : vector<{n}xi1> into i1"));
        self.line(&format!("{any} = vector.reduction <or>, {m} : vector<{n}xi1> into i1"));
        self.line(&format!("scf.if {all} {{"));
        self.line(&format!("  llvm.store {v}, {p} {{alignment = 2 : i64}} : vector<{n}xi16>, !llvm.ptr"));
        self.line(&format!("}} else {{ scf.if {any} {{"));
        self.depth += 1;
        self.chunked_store_16(p, v, m, n);
        self.depth -= 1;
        self.line("} }");
    }

    /// Stores the masked-in lanes of `v` in chunks of `CHUNK_16` lanes read back from stack
    /// copies of the lanes and the mask: a chunk wholly in is one vector store, one wholly out
    /// is skipped, and only a mixed chunk (and a tail shorter than a chunk) stores lane by
    /// lane. A partial tile's mask is a prefix of its columns, so a row pays for at most one
    /// mixed chunk.
    fn chunked_store_16(&mut self, p: &str, v: &str, m: &str, n: usize) {
        let vbuf = self.to_stack(v, Scalar::I16, n);
        let mbuf = self.mask_to_stack(m, n);
        let chunks = n / CHUNK_16;
        if chunks > 0 {
            let (_, c64) = self.open_row_loop(chunks);
            let w = self.const_int(CHUNK_16 as i64, "i64");
            let off = self.fresh();
            self.line(&format!("{off} = arith.muli {c64}, {w} : i64"));
            let (mp, src, dst) = (self.gep(&mbuf, &off, Scalar::I8), self.gep(&vbuf, &off, Scalar::I16), self.gep(p, &off, Scalar::I16));
            // The chunk's mask bytes as one word: every byte 1, or every byte 0.
            let word = self.fresh();
            self.line(&format!("{word} = llvm.load {mp} {{alignment = 8 : i64}} : !llvm.ptr -> i64"));
            let (ones, zero) = (self.const_int(0x0101_0101_0101_0101, "i64"), self.const_int(0, "i64"));
            let (full, some) = (self.fresh(), self.fresh());
            self.line(&format!("{full} = arith.cmpi eq, {word}, {ones} : i64"));
            self.line(&format!("{some} = arith.cmpi ne, {word}, {zero} : i64"));
            let x = self.fresh();
            self.line(&format!("scf.if {full} {{"));
            self.line(&format!("  {x} = llvm.load {src} {{alignment = 16 : i64}} : !llvm.ptr -> vector<{CHUNK_16}xi16>"));
            self.line(&format!("  llvm.store {x}, {dst} {{alignment = 2 : i64}} : vector<{CHUNK_16}xi16>, !llvm.ptr"));
            self.line(&format!("}} else {{ scf.if {some} {{"));
            self.depth += 1;
            self.copy_lanes_16(&mp, &src, &dst, CHUNK_16);
            self.depth -= 1;
            self.line("} }");
            self.close_loop();
        }
        let done = chunks * CHUNK_16;
        if done < n {
            let at = self.const_int(done as i64, "i64");
            let (mp, src, dst) = (self.gep(&mbuf, &at, Scalar::I8), self.gep(&vbuf, &at, Scalar::I16), self.gep(p, &at, Scalar::I16));
            self.copy_lanes_16(&mp, &src, &dst, n - done);
        }
    }

    /// `count` 16-bit lanes from `src` to `dst`, each where its mask byte at `mp` is nonzero.
    fn copy_lanes_16(&mut self, mp: &str, src: &str, dst: &str, count: usize) {
        self.each_lane(count, Some(mp), |cx, j| {
            let (sp, dp) = (cx.gep(src, j, Scalar::I16), cx.gep(dst, j, Scalar::I16));
            cx.copy_elem(&sp, &dp, Scalar::I16);
        });
    }

    /// Stack copies of the address lanes and, if there is one, of the mask (a byte a lane).
    fn lane_addrs_and_mask(&mut self, a: &str, n: usize, mask: Option<&str>) -> (String, Option<String>) {
        let pbuf = self.to_stack(a, Scalar::I64, n);
        let mbuf = mask.map(|m| self.mask_to_stack(m, n));
        (pbuf, mbuf)
    }

    /// A stack copy of mask `m` (`n` lanes), a byte a lane.
    fn mask_to_stack(&mut self, m: &str, n: usize) -> String {
        let bytes = self.fresh();
        self.line(&format!("{bytes} = arith.extui {m} : vector<{n}xi1> to vector<{n}xi8>"));
        self.to_stack(&bytes, Scalar::I8, n)
    }

    /// A stack slot holding vector `v` (`n` lanes of `elem`).
    fn to_stack(&mut self, v: &str, elem: Scalar, n: usize) -> String {
        let buf = self.alloca(elem, n);
        self.line(&format!("llvm.store {v}, {buf} {{alignment = 64 : i64}} : vector<{n}x{}>, !llvm.ptr", elem.mlir()));
        buf
    }

    /// A loop over `count` lanes whose body, `body(cx, j)` for lane `j` (i64), runs where lane
    /// `j`'s byte at `mbuf` is nonzero, or always without `mbuf`.
    fn each_lane(&mut self, count: usize, mbuf: Option<&str>, body: impl FnOnce(&mut Self, &str)) {
        let (_, j) = self.open_row_loop(count);
        let on = self.lane_on(mbuf, &j);
        body(self, &j);
        self.close_lane(on);
        self.close_loop();
    }

    /// Copies one `elem` from `src` to `dst`.
    fn copy_elem(&mut self, src: &str, dst: &str, elem: Scalar) {
        let (x, al, t) = (self.fresh(), elem.bytes(), elem.mlir());
        self.line(&format!("  {x} = llvm.load {src} {{alignment = {al} : i64}} : !llvm.ptr -> {t}"));
        self.line(&format!("  llvm.store {x}, {dst} {{alignment = {al} : i64}} : {t}, !llvm.ptr"));
    }

    /// Opens `scf.if` on lane `j`'s mask byte when there is a mask; true if it opened one.
    fn lane_on(&mut self, mbuf: Option<&str>, j: &str) -> bool {
        let Some(mbuf) = mbuf else { return false };
        let (b, z, on) = (self.fresh(), self.fresh(), self.fresh());
        let bp = self.gep(mbuf, j, Scalar::I8);
        self.line(&format!("{b} = llvm.load {bp} {{alignment = 1 : i64}} : !llvm.ptr -> i8"));
        self.line(&format!("{z} = arith.constant 0 : i8"));
        self.line(&format!("{on} = arith.cmpi ne, {b}, {z} : i8"));
        self.line(&format!("scf.if {on} {{"));
        true
    }

    /// Closes what [`Cx::lane_on`] opened.
    fn close_lane(&mut self, opened: bool) {
        if opened {
            self.line("}");
        }
    }

    /// Lane `j`'s address, as a pointer.
    fn lane_addr(&mut self, pbuf: &str, j: &str) -> String {
        let (w, p) = (self.fresh(), self.fresh());
        let wp = self.gep(pbuf, j, Scalar::I64);
        self.line(&format!("  {w} = llvm.load {wp} {{alignment = 8 : i64}} : !llvm.ptr -> i64"));
        self.line(&format!("  {p} = llvm.inttoptr {w} : i64 to !llvm.ptr"));
        p
    }
}
