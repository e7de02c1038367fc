//! The model reader recurses (an interpreter): the tests run it on a thread with a stack they
//! choose, the CLI's deep one or the page worker's small one. Each test uses one or both.
#![allow(dead_code)]

/// Runs `f` on a 256 MB stack, as `padlab port` gives the reader (debug builds need the most).
pub fn on_deep_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    on_stack(256 << 20, f)
}

/// Runs `f` with the stack a release build's worker has (1 MB; debug frames are several times
/// larger, so a debug build gets 8 MB): a deep paste must fail with Python's RecursionError
/// there, not overflow the stack.
pub fn on_worker_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let kb = if cfg!(debug_assertions) { 8192 } else { 1024 };
    on_stack(kb << 10, f)
}

fn on_stack<T: Send + 'static>(bytes: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(bytes)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}
