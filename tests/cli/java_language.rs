//! Java submissions judged in the real sandbox through `sudojudge verify`: the main class
//! found as Kattis and DOMjudge find it, the heap set from the problem's memory limit with
//! the JVM's own memory on top (a 64 MiB problem holds 40 MiB of live data), a heap blown
//! past it reported as a memory limit, and the JVM's threads allowed where a C program's
//! processes stay bound.

use std::path::Path;
use std::process::Command;

use crate::fixtures::{config, kattis};

/// Whether this machine has a JDK; without one the test says so and passes, except on CI,
/// which installs it (scripts/install-deps judge).
fn have_jdk() -> bool {
    if Path::new("/usr/bin/javac").exists() && Path::new("/usr/bin/jar").exists() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI needs a JDK: scripts/install-deps judge installs default-jdk-headless"
    );
    eprintln!(
        "skipped: no JDK on this machine (/usr/bin/javac); scripts/install-deps judge installs one"
    );
    false
}

const ACCEPTED_PUBLIC: &str = r#"import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer t = new StringTokenizer(in.readLine());
        long a = Long.parseLong(t.nextToken()), b = Long.parseLong(t.nextToken());
        System.out.println(a + b);
    }
}
"#;

// No public class, a helper class first, a file name matching no class, recursion 100,000
// deep (the run's -Xss), and `main` in a comment and a string to mislead a naive search.
const ACCEPTED_PACKAGE_PRIVATE: &str = r#"import java.util.Scanner;

// class Fake { public static void main(String[] a) {} }
class Adder {
    static long add(long a, long b, int depth) {
        return depth == 0 ? a + b : add(a, b, depth - 1);
    }
}

final class Solver {
    static final String NOTE = "public static void main(";
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        System.out.println(Adder.add(in.nextLong(), in.nextLong(), 100000));
    }
}
"#;

// 40 MiB live in a 64 MiB problem: the heap is the problem's limit, the JVM's own memory
// (about 20-40 MiB) is not charged to it.
const ACCEPTED_BIG_HEAP: &str = r#"import java.util.Scanner;

public class BigHeap {
    public static void main(String[] args) {
        byte[][] keep = new byte[40][];
        for (int i = 0; i < keep.length; i++) {
            keep[i] = new byte[1 << 20];
            java.util.Arrays.fill(keep[i], (byte) i);
        }
        Scanner in = new Scanner(System.in);
        long sum = in.nextLong() + in.nextLong();
        int check = 0;
        for (byte[] k : keep) check += k[12345];
        System.out.println(sum + (check == 780 ? 0 : 1));
    }
}
"#;

const WRONG: &str = r#"import java.util.Scanner;
public class Off { public static void main(String[] a) {
    Scanner in = new Scanner(System.in);
    System.out.println(in.nextLong() + in.nextLong() + 1);
} }
"#;

const SPIN: &str = r#"public class Spin { public static void main(String[] a) {
    long x = 0; while (x >= 0) { x = (x * 31 + 7) & 0xffffff; }
    System.out.println(x);
} }
"#;

const HEAP_BLOWUP: &str = r#"import java.util.*;
public class Hog { public static void main(String[] a) {
    List<long[]> keep = new ArrayList<>();
    while (true) keep.add(new long[1 << 17]);
} }
"#;

const THROWS: &str = r#"public class Throws { public static void main(String[] a) {
    int[] x = new int[3];
    System.out.println(x[a.length + 5]);
} }
"#;

const NO_MAIN: &str = "public class Lib { static int f() { return 1; } }\n";

// A C program starting 16 processes: the box's bound of 8 (this test's config) stops it,
// while the JVMs above run their dozen threads under the same bound.
const C_FORKS: &str = r#"#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>
int main(void) {
    long a, b;
    if (scanf("%ld %ld", &a, &b) != 2) return 3;
    for (int i = 0; i < 16; i++) {
        pid_t p = fork();
        if (p < 0) return 1;
        if (p == 0) { sleep(1); _exit(0); }
    }
    while (wait(NULL) > 0) {}
    printf("%ld\n", a + b);
    return 0;
}
"#;

#[test]
fn java_submissions_get_their_folders_verdicts_with_the_jvm_outside_the_heap() {
    if !have_jdk() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let problems = dir.path().join("problems");
    let package = kattis::write_package(
        &problems,
        "javasum",
        &[
            (
                "problem.yaml",
                "problem_format_version: 2023-07-draft\nname: Sum in Java\nuuid: 5b1f0d2a\n\
                 license: cc0\nlimits:\n  time_limit: 1\n  memory: 64\n",
            ),
            ("statement/problem.en.md", "Print a + b.\n"),
            ("data/sample/1.in", "1 2\n"),
            ("data/sample/1.ans", "3\n"),
            ("data/secret/1.in", "1000000000000 -1\n"),
            ("data/secret/1.ans", "999999999999\n"),
            ("data/secret/2.in", "-5 5\n"),
            ("data/secret/2.ans", "0\n"),
            ("submissions/accepted/Main.java", ACCEPTED_PUBLIC),
            (
                "submissions/accepted/anything.java",
                ACCEPTED_PACKAGE_PRIVATE,
            ),
            ("submissions/accepted/BigHeap.java", ACCEPTED_BIG_HEAP),
            ("submissions/wrong_answer/Off.java", WRONG),
            ("submissions/time_limit_exceeded/Spin.java", SPIN),
            ("submissions/run_time_error/Hog.java", HEAP_BLOWUP),
            ("submissions/run_time_error/Throws.java", THROWS),
            ("submissions/run_time_error/forks.c", C_FORKS),
            ("submissions/rejected/Lib.java", NO_MAIN),
        ],
    );
    let config = config::write_config(dir.path(), &problems, "[sandbox]\nmax_processes = 8\n");
    let out = Command::new(env!("CARGO_BIN_EXE_sudojudge"))
        .arg("--config")
        .arg(&config)
        .args(["verify", "--json"])
        .arg(&package)
        .env_remove("SUDOJUDGE_CONFIG")
        .output()
        .expect("the binary runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON ({e}): {} {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert!(
        out.status.success(),
        "{json:#}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let subs = json["submissions"]["submissions"].as_array().unwrap();
    let find = |name: &str| {
        subs.iter()
            .find(|s| s["name"] == name)
            .unwrap_or_else(|| panic!("{name} not judged: {json:#}"))
    };
    for (name, verdict) in [
        ("accepted/Main.java", "AC"),
        ("accepted/anything.java", "AC"),
        ("accepted/BigHeap.java", "AC"),
        ("wrong_answer/Off.java", "WA"),
        ("time_limit_exceeded/Spin.java", "TLE"),
        // The heap past -Xmx (the problem's 64 MiB) is a memory limit, not a crash.
        ("run_time_error/Hog.java", "MLE"),
        ("run_time_error/Throws.java", "RE"),
        // The JVM's extra threads are Java's only: C keeps the bound of 8.
        ("run_time_error/forks.c", "RE"),
        // No class with a main method: a compile error naming why.
        ("rejected/Lib.java", "CE"),
    ] {
        assert_eq!(find(name)["got"], verdict, "{name}: {:#}", find(name));
    }
    // The big heap's peak is above the problem's 64 MiB: the JVM's own memory is extra.
    let big = find("accepted/BigHeap.java");
    assert!(big["memory_kib"].as_u64().unwrap() > 64 * 1024, "{big:#}");
}
