// examples/sdt-only/node.cpp - a program whose tracepoints are written
// with sys/sdt.h alone, as Bitcoin Core's are (its TRACE6 macros): no .d
// file takes part in its build.  node.d declares the same probes for
// probegen, so that --trace and --expect read their arguments by name:
// a message's bytes by its length, a transaction id as a hash.
// STAP_PROBEV, the variadic form, is there only when asked for.
#define SDT_USE_VARIADIC 1
#include <sys/sdt.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

struct Message {
	std::string type;
	std::vector<unsigned char> payload;
};

static void receive(int64_t peer, const char *addr, const Message &m)
{
	// STAP_PROBEV takes any number of arguments, as TRACE6 does.
	STAP_PROBEV(net, inbound_message, peer, addr, m.type.c_str(),
		    (uint64_t)m.payload.size(), m.payload.data());
}

static void add_to_mempool(const unsigned char *txid, int vsize,
			   int64_t fee)
{
	DTRACE_PROBE3(mempool, added, txid, vsize, fee);
}

int main()
{
	std::vector<Message> inbox = {
		{ "version", std::vector<unsigned char>(102, 0x7f) },
		{ "ping", std::vector<unsigned char>(8, 0x01) },
		{ "pong", std::vector<unsigned char>(8, 0x02) },
		{ "ping", std::vector<unsigned char>(8, 0x03) },
	};
	unsigned char txid[32];

	for (const Message &m : inbox)
		receive(7, "127.0.0.1:8333", m);
	// A hash is printed last byte first, as Bitcoin prints its ids:
	// these end in zeros, so they are shown starting 0000...
	for (int i = 0; i < 3; i++) {
		for (int k = 0; k < 32; k++)
			txid[k] = k < 28 ? (unsigned char)(0x10 * i + k) : 0;
		add_to_mempool(txid, 140 + i, 500 + 1000 * i);
	}
	std::printf("node: %zu messages, 3 transactions\n", inbox.size());
	return 0;
}
