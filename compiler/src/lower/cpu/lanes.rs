//! Tiles of arbitrary addresses (`Addr::Lanes`) stored, and 8- and 16-bit ones loaded, by a
//! loop over stack copies of the lanes, their addresses and their mask.
//!
//! Why not `llvm.masked.scatter` / `gather`: x86 before AVX-512 has no scatter and no 8- or
//! 16-bit gather, so LLVM expands them lane by lane into a branch per lane. At 2048 lanes that
//! took over 200 s to compile on an AVX2 host (`gemm_ar` bf16, `METHOD=3`) against 5 s where
//! AVX-512 has the instructions. Those expansions run lane by lane anyway; the loop does the
//! same work with a body of constant size, so the compile time no longer grows with the tile.
//! Whether LLVM expands a 32- or 64-bit gather too depends on the CPU model (AVX2 has the
//! instruction, but models not tuned for fast gathers, `x86-64-v3` and AMD's among them, still
//! get the expansion: 2048 f32 lanes took minutes), so only small ones keep `masked.gather`.

use super::emit::Cx;
use crate::ir::Scalar;

/// The most lanes a 32- or 64-bit gather keeps `llvm.masked.gather` for: an expanded one costs
/// compile time by the lane.
const GATHER_MAX: usize = 64;

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
        let (_, j) = self.open_row_loop(n);
        let on = self.lane_on(mbuf.as_deref(), &j);
        let (p, x) = (self.lane_addr(&pbuf, &j), self.fresh());
        let src = self.gep(&vbuf, &j, elem);
        let (al, t) = (elem.bytes(), elem.mlir());
        self.line(&format!("  {x} = llvm.load {src} {{alignment = {al} : i64}} : !llvm.ptr -> {t}"));
        self.line(&format!("  llvm.store {x}, {p} {{alignment = {al} : i64}} : {t}, !llvm.ptr"));
        self.close_lane(on);
        self.close_loop();
    }

    /// Loads `n` lanes of `elem` from the addresses in `a` where `mask` is set, `other` (a
    /// vector, or zero) elsewhere; returns the vector.
    pub(crate) fn lanes_load(&mut self, a: &str, elem: Scalar, n: usize, mask: Option<&str>, other: Option<&str>) -> String {
        let vt = format!("vector<{n}x{}>", elem.mlir());
        let (pbuf, mbuf) = self.lane_addrs_and_mask(a, n, mask);
        let fill = other.map(str::to_string).unwrap_or_else(|| self.zero(&vt));
        let rbuf = self.to_stack(&fill, elem, n);
        let (_, j) = self.open_row_loop(n);
        let on = self.lane_on(mbuf.as_deref(), &j);
        let (p, x) = (self.lane_addr(&pbuf, &j), self.fresh());
        let dst = self.gep(&rbuf, &j, elem);
        let (al, t) = (elem.bytes(), elem.mlir());
        self.line(&format!("  {x} = llvm.load {p} {{alignment = {al} : i64}} : !llvm.ptr -> {t}"));
        self.line(&format!("  llvm.store {x}, {dst} {{alignment = {al} : i64}} : {t}, !llvm.ptr"));
        self.close_lane(on);
        self.close_loop();
        let r = self.fresh();
        self.line(&format!("{r} = llvm.load {rbuf} {{alignment = 64 : i64}} : !llvm.ptr -> {vt}"));
        r
    }

    /// Stack copies of the address lanes and, if there is one, of the mask (a byte a lane).
    fn lane_addrs_and_mask(&mut self, a: &str, n: usize, mask: Option<&str>) -> (String, Option<String>) {
        let pbuf = self.to_stack(a, Scalar::I64, n);
        let mbuf = mask.map(|m| {
            let bytes = self.fresh();
            self.line(&format!("{bytes} = arith.extui {m} : vector<{n}xi1> to vector<{n}xi8>"));
            self.to_stack(&bytes, Scalar::I8, n)
        });
        (pbuf, mbuf)
    }

    /// A stack slot holding vector `v` (`n` lanes of `elem`).
    fn to_stack(&mut self, v: &str, elem: Scalar, n: usize) -> String {
        let buf = self.alloca(elem, n);
        self.line(&format!("llvm.store {v}, {buf} {{alignment = 64 : i64}} : vector<{n}x{}>, !llvm.ptr", elem.mlir()));
        buf
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
