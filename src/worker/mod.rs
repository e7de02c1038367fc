//! The code-generator worker's side of the page: it writes the code and draws the plot off the
//! first load. [`protocol`] is the plain-text message format (the page needs neither the
//! generator, plotters nor a JSON library to speak it).

pub mod protocol;
