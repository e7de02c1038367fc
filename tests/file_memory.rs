//! Reading a model file does not copy its weights: the peak of what the reader allocates is
//! measured by a counting allocator (this binary holds one test, so nothing else allocates
//! meanwhile).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use padlab::model::file::onnx_graph::{InputSizes, to_graph};
use padlab::model::file::{ModelFile, read_file};

#[path = "common/onnx_bytes.rs"]
mod onnx_bytes;
use onnx_bytes::{field, float_input, model, varint};

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = CURRENT.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
        PEAK.fetch_max(now, Ordering::SeqCst);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CURRENT.fetch_sub(layout.size(), Ordering::SeqCst);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A ModelProto: x [1, 64, 32, 32] → Conv with a 64 MB weight (raw_data) → y.
fn big_model() -> Vec<u8> {
    let (out_ch, in_ch, k) = (4096u64, 64u64, 8u64);
    let mut w = Vec::new();
    for d in [out_ch, in_ch, k, k] {
        varint(1 << 3, &mut w);
        varint(d, &mut w);
    }
    varint(2 << 3, &mut w);
    varint(1, &mut w); // FLOAT
    field(8, b"w", &mut w);
    field(9, &vec![0u8; (out_ch * in_ch * k * k * 4) as usize], &mut w);

    let mut node = Vec::new();
    field(1, b"x", &mut node);
    field(1, b"w", &mut node);
    field(2, b"y", &mut node);
    field(3, b"conv", &mut node);
    field(4, b"Conv", &mut node);

    let mut output = Vec::new();
    field(1, b"y", &mut output);

    let mut graph = Vec::new();
    field(1, &node, &mut graph);
    field(2, b"big", &mut graph);
    field(5, &w, &mut graph);
    field(11, &float_input("x", &[1, 64, 32, 32]), &mut graph);
    field(12, &output, &mut graph);
    model(&graph, Some(21))
}

#[test]
fn a_64_mb_model_is_read_in_under_a_megabyte() {
    let bytes = big_model();
    assert!(bytes.len() > 64 << 20);
    let base = CURRENT.load(Ordering::SeqCst);
    PEAK.store(base, Ordering::SeqCst);
    let model = match read_file(&bytes) {
        Ok(ModelFile::Onnx(m)) => m,
        other => panic!("{other:?}"),
    };
    let graph = to_graph(&model, &InputSizes::default()).unwrap_or_else(|e| panic!("{e}"));
    let peak = PEAK.load(Ordering::SeqCst) - base;
    assert_eq!(
        graph.nodes.last().and_then(|n| n.shape()),
        Some(&vec![1, 4096, 25, 25])
    );
    assert!(
        peak < 1 << 20,
        "reading a {} byte file allocated {peak} bytes",
        bytes.len()
    );
}

/// A real export, when one is named: `PADLAB_BIG_ONNX=resnet50.onnx cargo test --release
/// --test file_memory -- --ignored --nocapture` prints the time and the peak.
#[test]
#[ignore]
fn a_named_file_is_read_in_little_memory() {
    let Ok(path) = std::env::var("PADLAB_BIG_ONNX") else {
        return;
    };
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let base = CURRENT.load(Ordering::SeqCst);
    PEAK.store(base, Ordering::SeqCst);
    let start = std::time::Instant::now();
    let model = match read_file(&bytes) {
        Ok(ModelFile::Onnx(m)) => m,
        other => panic!("{other:?}"),
    };
    let read = start.elapsed();
    let sizes = InputSizes {
        first: Some(vec![1, 3, 224, 224]),
        ..Default::default()
    };
    let graph = to_graph(&model, &sizes).unwrap_or_else(|e| panic!("{e}"));
    let took = start.elapsed();
    let peak = PEAK.load(Ordering::SeqCst) - base;
    println!(
        "{path}: {} bytes, {} nodes, read in {read:?}, graph in {:?}, peak {peak} bytes above the file; last shape {:?}",
        bytes.len(),
        graph.nodes.len(),
        took - read,
        graph.nodes.last().and_then(|n| n.shape())
    );
}
