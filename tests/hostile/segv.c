/* Dereferences NULL: runtime_error with SIGSEGV recorded, not confused with a limit. */
int main(void) { volatile int *p = 0; return *p; }
