/* tests/src/objects.cc - class types by value as probe arguments (a
 * temporary whose destructor clears it, smart pointers, std::string_view), with a
 * reference and an enum class; prints the values a tracer must show. */
#include <cstdio>
#include <memory>
#include <string_view>
#include "objects.h"

struct holder {
	long v;
	explicit holder(long x) : v(x) {}
	~holder() { v = 0; }
};
enum class colour : int { red = 7 };

int main()
{
	std::unique_ptr<long> unique(new long(52));
	std::shared_ptr<long> shared = std::make_shared<long>(53);
	std::string_view view("probe");
	long r = 54;
	long &ref = r;

	std::printf("objs:cpp_values holder=51 unique=%p shared=%p view_len=5 ref=54 e=7\n",
		    (void *)unique.get(), (void *)shared.get());
	std::fflush(stdout);
	OBJS_CPP_VALUES(holder(51), unique, shared, view, ref, colour::red);
	return 0;
}
