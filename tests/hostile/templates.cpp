// Runaway template instantiation: a compiler bomb that must end as a compile error.
template <int N> struct F { enum { v = F<N - 1>::v + F<N - 2>::v + F<N - 3>::v }; };
template <> struct F<0> { enum { v = 1 }; };
template <> struct F<1> { enum { v = 1 }; };
template <> struct F<2> { enum { v = 1 }; };
int main() { return F<100000>::v; }
