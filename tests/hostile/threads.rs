// Eight spinning threads: time_limit (CPU summed over threads).
fn main() {
    let handles: Vec<_> = (0..8)
        .map(|_| std::thread::spawn(|| { let mut x: u64 = 0; loop { x = std::hint::black_box(x + 1); } }))
        .collect();
    for h in handles { let _ = h.join(); }
}
