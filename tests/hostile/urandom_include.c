#include "/dev/urandom"
int main(void) { return 0; }
