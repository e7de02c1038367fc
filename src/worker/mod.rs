//! The code-generator worker, off the first load: it writes the code, draws the plot, reads and
//! ports pasted models. [`protocol`] is the plain-text message format (the page needs neither
//! the generator, plotters, the model reader nor a JSON library to speak it); [`serve`] is the
//! worker's side, which the worker binary runs.

pub mod protocol;
pub mod serve;
