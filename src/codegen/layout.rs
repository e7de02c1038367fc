//! Data and weight layouts: torch and ONNX are channels first (`NCHW`, weights
//! `(out, in, kH, kW)`), Keras and TF channels last (`NHWC`, kernels `(kH, kW, in, out)`).
//! Each function gives the axes to `np.transpose` by, for `n` spatial dimensions.

use crate::core::Framework;

/// Whether `framework` puts channels last.
pub fn channels_last(framework: Framework) -> bool {
    matches!(framework, Framework::Keras | Framework::Tf)
}

/// Data `NC…` -> `N…C`: `(0, 2, …, n + 1, 1)`.
pub fn data_to_last(n: usize) -> Vec<i64> {
    let n = n as i64;
    std::iter::once(0).chain(2..n + 2).chain([1]).collect()
}

/// Data `N…C` -> `NC…`: `(0, n + 1, 1, …, n)`.
pub fn data_to_first(n: usize) -> Vec<i64> {
    let n = n as i64;
    [0, n + 1].into_iter().chain(1..n + 1).collect()
}

/// A torch weight `(out, in, k…)` -> a Keras kernel `(k…, in, out)`: `(2, …, n + 1, 1, 0)`.
pub fn kernel_to_last(n: usize) -> Vec<i64> {
    let n = n as i64;
    (2..n + 2).chain([1, 0]).collect()
}

/// A Keras kernel `(k…, in, out)` -> a torch weight `(out, in, k…)`: `(n + 1, n, 0, …, n - 1)`.
pub fn kernel_to_first(n: usize) -> Vec<i64> {
    let n = n as i64;
    [n + 1, n].into_iter().chain(0..n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_invert_each_other() {
        for n in 1..=3 {
            let compose =
                |a: &[i64], b: &[i64]| -> Vec<i64> { b.iter().map(|&i| a[i as usize]).collect() };
            let id: Vec<i64> = (0..n as i64 + 2).collect();
            assert_eq!(compose(&data_to_last(n), &data_to_first(n)), id);
            assert_eq!(compose(&kernel_to_last(n), &kernel_to_first(n)), id);
        }
        assert_eq!(data_to_last(2), vec![0, 2, 3, 1]);
        assert_eq!(kernel_to_last(2), vec![2, 3, 1, 0]);
        assert_eq!(kernel_to_first(2), vec![3, 2, 0, 1]);
    }
}
