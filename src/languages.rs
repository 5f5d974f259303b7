//! The language table: how to compile and run a source in each supported language.
