//! GPU binaries in the compile cache: a cubin (or AMD code object) with its entry symbol and
//! the assembler's report, under the same key and directory as the CPU's libraries. An entry is
//! two files, `<kernel>-<key>.<cubin|hsaco>` and `<kernel>-<key>.meta`; the meta file records
//! the binary's hash, so an entry that does not read back whole is compiled again, not trusted.

use super::{cache_dir, cache_key, write_atomic};
use crate::backend::amdgpu::AmdgpuReport;
use crate::backend::nvptx::{parse_ptxas, PtxasReport};
use crate::error::CompileError;
use crate::ir::Kernel;
use crate::pipeline::timings::time;
use crate::pipeline::{self, Options, Output, Target};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};
use weft_runtime::cuda::tensor_map::{TmaElem, TmaParam, TmaSwizzle};

/// A kernel compiled to a GPU binary.
#[derive(Clone, Debug)]
pub struct GpuBinary {
    /// The cubin or HSA code object.
    pub image: Vec<u8>,
    /// Entry symbol.
    pub symbol: String,
    /// The binary stage's text (the resource report `weft compile --emit cubin` prints).
    pub text: String,
    /// ptxas's report (NVIDIA).
    pub ptxas: Option<PtxasReport>,
    /// The register / scratch report (AMD).
    pub amdgpu: Option<AmdgpuReport>,
    /// Dynamic shared memory bytes the launch must give each CTA.
    pub dynamic_smem: u32,
    /// The tensor maps the launch appends to the arguments.
    pub tma: Vec<TmaParam>,
    /// Whether it came from the on-disk cache.
    pub from_disk_cache: bool,
}

impl GpuBinary {
    /// The pipeline output a full run to the binary would have given.
    pub fn to_output(&self, target: Target) -> Output {
        Output {
            text: self.text.clone(),
            object: Some(self.image.clone()),
            sites: vec![],
            symbol: self.symbol.clone(),
            machine: target.name().into(),
            ptxas: self.ptxas.clone(),
            amdgpu: self.amdgpu.clone(),
            dynamic_smem: self.dynamic_smem,
            tma: self.tma.clone(),
        }
    }
}

fn memory() -> &'static Mutex<HashMap<String, Arc<GpuBinary>>> {
    static MEM: OnceLock<Mutex<HashMap<String, Arc<GpuBinary>>>> = OnceLock::new();
    MEM.get_or_init(Default::default)
}

pub(super) fn clear_memory() {
    memory().lock().unwrap_or_else(|e| e.into_inner()).clear();
}

/// Compiles `kernel` for GPU `target` to its binary, or returns it from the cache in
/// [`cache_dir`]. With a dump directory set it always compiles, so every stage is written.
pub fn compile_gpu(kernel: &Kernel, target: Target, opts: &Options) -> Result<Arc<GpuBinary>, CompileError> {
    compile_gpu_in(&cache_dir(), kernel, target, opts)
}

/// [`pipeline::run`], through the cache when a GPU target runs to its binary.
pub fn run_cached(kernel: &Kernel, target: Target, until: Option<&str>, opts: &Options) -> Result<Output, CompileError> {
    let to_binary = until.is_none_or(|u| target.stages().last().is_some_and(|s| s.name == u));
    if target != Target::Cpu && to_binary {
        return Ok(compile_gpu(kernel, target, opts)?.to_output(target));
    }
    pipeline::run(kernel, target, until, opts)
}

/// [`compile_gpu`] with the on-disk cache in `dir`.
pub fn compile_gpu_in(dir: &Path, kernel: &Kernel, target: Target, opts: &Options) -> Result<Arc<GpuBinary>, CompileError> {
    let _label = crate::pipeline::timings::label(format!("{} {}", kernel.name, target.name()));
    let key = time("cache.key", || format!("{}-{}", kernel.name, cache_key(kernel, target)));
    let mem_key = format!("{}/{key}", dir.display());
    if opts.dump_dir.is_none() {
        if let Some(b) = memory().lock().unwrap_or_else(|e| e.into_inner()).get(&mem_key) {
            return Ok(b.clone());
        }
    }
    let ext = if matches!(target, Target::Amd { .. }) { "hsaco" } else { "cubin" };
    let (image_path, meta_path) = (dir.join(format!("{key}.{ext}")), dir.join(format!("{key}.meta")));
    let cached = if opts.dump_dir.is_none() { time("cache.read", || load(&image_path, &meta_path)) } else { None };
    if cached.is_some() {
        super::evict::touch(&image_path);
    }
    let binary = Arc::new(match cached {
        Some(b) => b,
        None => {
            let out = pipeline::run(kernel, target, None, opts)?;
            let b = GpuBinary { image: out.object.unwrap_or_default(), symbol: out.symbol, text: out.text, ptxas: out.ptxas, amdgpu: out.amdgpu, dynamic_smem: out.dynamic_smem, tma: out.tma, from_disk_cache: false };
            time("cache.write", || {
                std::fs::create_dir_all(dir).map_err(|source| CompileError::Io { path: dir.display().to_string(), source })?;
                // The binary first: a meta file names only a complete one.
                write_atomic(&image_path, &b.image)?;
                let meta = meta(&b);
                write_atomic(&meta_path, &meta)?;
                super::evict::after_write(dir, (b.image.len() + meta.len()) as u64);
                Ok::<(), CompileError>(())
            })?;
            b
        }
    });
    memory().lock().unwrap_or_else(|e| e.into_inner()).insert(mem_key, binary.clone());
    Ok(binary)
}

/// The meta file: `key value` lines, then the stage text and ptxas's log as counted bytes.
fn meta(b: &GpuBinary) -> Vec<u8> {
    let mut m = format!("weft-gpu-cache 2\nsymbol {}\nimage {}\ndynamic_smem {}\n", b.symbol, blake3::hash(&b.image).to_hex(), b.dynamic_smem);
    for p in &b.tma {
        m += &format!("tma {}\n", tma_words(p));
    }
    if let Some(r) = &b.amdgpu {
        let n = [r.sgprs, r.vgprs, r.agprs, r.scratch, r.lds, r.occupancy, r.spill_insts];
        m += &format!("amdgpu {}\n", n.map(|x| x.to_string()).join(" "));
    }
    for (name, text) in [("text", Some(&b.text)), ("ptxas", b.ptxas.as_ref().map(|r| &r.log))] {
        if let Some(t) = text {
            m += &format!("{name} {}\n{t}\n", t.len());
        }
    }
    m.into_bytes()
}

/// Reads an entry back; `None` when it is missing, malformed or its binary does not match
/// the recorded hash.
fn load(image_path: &Path, meta_path: &Path) -> Option<GpuBinary> {
    let meta = std::fs::read_to_string(meta_path).ok()?;
    let image = std::fs::read(image_path).ok()?;
    let mut rest = meta.strip_prefix("weft-gpu-cache 2\n")?;
    let mut b = GpuBinary { image, symbol: String::new(), text: String::new(), ptxas: None, amdgpu: None, dynamic_smem: 0, tma: vec![], from_disk_cache: true };
    let mut hash_ok = false;
    let mut log = None;
    while let Some((line, after)) = rest.split_once('\n') {
        let (field, value) = line.split_once(' ')?;
        rest = after;
        match field {
            "symbol" => b.symbol = value.to_string(),
            "dynamic_smem" => b.dynamic_smem = value.parse().ok()?,
            "tma" => b.tma.push(tma_parse(value)?),
            "image" => hash_ok = blake3::hash(&b.image).to_hex().as_str() == value,
            "amdgpu" => {
                let n: Vec<u32> = value.split(' ').map(|x| x.parse().ok()).collect::<Option<_>>()?;
                let [sgprs, vgprs, agprs, scratch, lds, occupancy, spill_insts] = n[..] else { return None };
                b.amdgpu = Some(AmdgpuReport { sgprs, vgprs, agprs, scratch, lds, occupancy, spill_insts });
            }
            "text" | "ptxas" => {
                let len: usize = value.parse().ok()?;
                let text = rest.get(..len)?.to_string();
                rest = rest.get(len..)?.strip_prefix('\n')?;
                if field == "text" { b.text = text } else { log = Some(text) }
            }
            _ => return None,
        }
    }
    b.ptxas = log.map(|l| parse_ptxas(&l, &b.symbol));
    (hash_ok && rest.is_empty() && !b.symbol.is_empty()).then_some(b)
}

/// A tensor-map parameter as the meta file's words: argument indices of the pointer, rows,
/// columns and row stride, then the box's rows and columns, the element and the swizzle span.
pub fn tma_words(p: &TmaParam) -> String {
    let e = match p.elem {
        TmaElem::F16 => "f16",
        TmaElem::Bf16 => "bf16",
        TmaElem::F32 => "f32",
    };
    let s = match p.swizzle {
        TmaSwizzle::None => 0,
        TmaSwizzle::B32 => 32,
        TmaSwizzle::B64 => 64,
        TmaSwizzle::B128 => 128,
    };
    format!("{} {} {} {} {} {} {e} {s}", p.ptr, p.rows, p.cols, p.ld, p.box_rows, p.box_cols)
}

/// The inverse of [`tma_words`] (`None`: malformed).
pub(crate) fn tma_parse(v: &str) -> Option<TmaParam> {
    let w: Vec<&str> = v.split(' ').collect();
    let [ptr, rows, cols, ld, br, bc, e, s] = w[..] else { return None };
    let elem = match e {
        "f16" => TmaElem::F16,
        "bf16" => TmaElem::Bf16,
        "f32" => TmaElem::F32,
        _ => return None,
    };
    let swizzle = match s {
        "0" => TmaSwizzle::None,
        x => TmaSwizzle::for_span(x.parse().ok()?)?,
    };
    let n = |x: &str| x.parse::<usize>().ok();
    Some(TmaParam { ptr: n(ptr)?, rows: n(rows)?, cols: n(cols)?, ld: n(ld)?, box_rows: br.parse().ok()?, box_cols: bc.parse().ok()?, elem, swizzle })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tensor_map_parameters_read_back_from_the_meta_file() {
        let elems = [TmaElem::F16, TmaElem::Bf16, TmaElem::F32];
        let swizzles = [TmaSwizzle::None, TmaSwizzle::B32, TmaSwizzle::B64, TmaSwizzle::B128];
        let mut n = 0usize;
        for (i, &elem) in elems.iter().enumerate() {
            for (j, &swizzle) in swizzles.iter().enumerate() {
                // Indices and boxes vary with the case so that no field is mistaken for another.
                let p = TmaParam { ptr: i, rows: 3 + j, cols: 5 + i * j, ld: 9 + n, box_rows: 8 << j, box_cols: 16 + 8 * i as u32, elem, swizzle };
                assert_eq!(tma_parse(&tma_words(&p)), Some(p));
                n += 1;
            }
        }
        for bad in ["0 3 5 5 64 64 bf16", "0 3 5 5 64 64 bf8 128", "0 3 5 5 64 64 bf16 96", "x 3 5 5 64 64 bf16 128"] {
            assert_eq!(tma_parse(bad), None, "{bad}");
        }
    }
}
