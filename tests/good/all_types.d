/* Every C spelling of the scalar types, pointers, arrays, function
 * pointers, tags, typedefs and D's own names. */
typedef unsigned long long hrtime_t;
typedef struct conn conn_t;
struct conn;
enum state { IDLE, BUSY = 2 };

provider types {
	probe ints(char a, signed char b, unsigned char c, short d,
	    short int e, signed short int f, unsigned short g, int h,
	    signed i, unsigned j, long k, long int l);
	probe longs(unsigned long a, long unsigned int b, long long c,
	    long long int d, signed long long e, unsigned long long f,
	    long long unsigned int g, hrtime_t h, _Bool i);
	probe consts(const char *a, char const *b, const unsigned char *c,
	    int *const d, const int *const e, volatile int *f);
	probe pointers(void *a, const void *b, char **c, int (*cb)(int, char *),
	    void (*done)(void), char buf[16], int *arr[4]);
	probe tags(struct conn *a, const struct conn *b, union u *c,
	    enum state d, conn_t *e);
	probe d_types(string s, int8_t a, int16_t b, int32_t c, int64_t d,
	    uint8_t e, uint16_t f, uint32_t g, uint64_t h, uintptr_t i,
	    size_t j, ssize_t k);
	probe unnamed(int, char *, unsigned long long, struct conn *);
	probe none();
	probe none_void(void);
};
