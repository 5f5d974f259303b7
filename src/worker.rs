//! Takes queued submissions and judges them.
