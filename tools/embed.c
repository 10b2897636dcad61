/*
 * embed.c: writes files as C data, each with its SHA-256, for the HTML
 * pages' inline script and style (formats/html_assets.h).
 *
 * The build runs it and compiles its output, so the sources stay plain
 * .js and .css files and the build needs nothing but the C compiler.  For
 * each FILE NAME pair it writes
 *
 *   const char NAME[] = {bytes..., 0};
 *   const char NAME_hash[] = "sha256-BASE64";
 *
 * the hash being what a Content-Security-Policy names an inline script or
 * style by.  A file that holds "</script" or "</style" (any case) is
 * refused: inside the page it would end the element it is in.
 *
 * Usage: embed FILE NAME [FILE NAME...] > out.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- SHA-256 (FIPS 180-4) --------------------------------------------------- */

static const uint32_t k256[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2};

static uint32_t ror(uint32_t x, int n)
{
	return x >> n | x << (32 - n);
}

static void sha256_block(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a[8];

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ w[i - 15] >> 3;
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ w[i - 2] >> 10;
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	memcpy(a, h, sizeof(a));
	for (int i = 0; i < 64; i++) {
		uint32_t s1 = ror(a[4], 6) ^ ror(a[4], 11) ^ ror(a[4], 25);
		uint32_t ch = (a[4] & a[5]) ^ (~a[4] & a[6]);
		uint32_t t1 = a[7] + s1 + ch + k256[i] + w[i];
		uint32_t s0 = ror(a[0], 2) ^ ror(a[0], 13) ^ ror(a[0], 22);
		uint32_t maj = (a[0] & a[1]) ^ (a[0] & a[2]) ^ (a[1] & a[2]);
		memmove(a + 1, a, 7 * sizeof(a[0]));
		a[4] += t1;
		a[0] = t1 + s0 + maj;
	}
	for (int i = 0; i < 8; i++)
		h[i] += a[i];
}

static void sha256(const unsigned char *data, size_t len, unsigned char out[32])
{
	uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
	unsigned char last[128];
	size_t full = len / 64 * 64, rest = len - full, n;
	uint64_t bits = (uint64_t)len * 8;

	for (size_t i = 0; i < full; i += 64)
		sha256_block(h, data + i);
	memset(last, 0, sizeof(last));
	memcpy(last, data + full, rest);
	last[rest] = 0x80;
	n = rest + 9 <= 64 ? 64 : 128;
	for (int i = 0; i < 8; i++)
		last[n - 1 - i] = (unsigned char)(bits >> (8 * i));
	for (size_t i = 0; i < n; i += 64)
		sha256_block(h, last + i);
	for (int i = 0; i < 8; i++) {
		out[4 * i] = (unsigned char)(h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(h[i] >> 8);
		out[4 * i + 3] = (unsigned char)h[i];
	}
}

static void base64(const unsigned char *in, size_t len, char *out)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < len ? (uint32_t)in[i + 1] << 8 : 0) |
			     (i + 2 < len ? in[i + 2] : 0);
		*out++ = abc[v >> 18 & 63];
		*out++ = abc[v >> 12 & 63];
		*out++ = i + 1 < len ? abc[v >> 6 & 63] : '=';
		*out++ = i + 2 < len ? abc[v & 63] : '=';
	}
	*out = '\0';
}

/* ---- files -------------------------------------------------------------------- */

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *p = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n == cap) {
			unsigned char *q = realloc(p, cap = cap ? cap * 2 : 65536);
			if (!q) {
				free(p);
				fclose(f);
				return NULL;
			}
			p = q;
		}
		{
			size_t got = fread(p + n, 1, cap - n, f);
			n += got;
			if (got == 0)
				break;
		}
	}
	fclose(f);
	*len = n;
	return p;
}

/* Does `p` hold `word` ("</script"), in any ASCII case? */
static int holds(const unsigned char *p, size_t len, const char *word)
{
	size_t w = strlen(word);

	for (size_t i = 0; i + w <= len; i++) {
		size_t k = 0;
		while (k < w && (p[i + k] | 0x20) == (unsigned char)(word[k] | 0x20))
			k++;
		if (k == w)
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc % 2 == 0) {
		fprintf(stderr, "usage: embed FILE NAME [FILE NAME...] > out.c\n");
		return 2;
	}
	printf("/* GENERATED by tools/embed.c; do not edit. */\n#include \"html_assets.h\"\n");
	for (int a = 1; a + 1 < argc; a += 2) {
		unsigned char digest[32];
		char b64[48];
		size_t len;
		unsigned char *p = slurp(argv[a], &len);
		if (!p) {
			fprintf(stderr, "embed: cannot read %s\n", argv[a]);
			return 1;
		}
		if (holds(p, len, "</script") || holds(p, len, "</style")) {
			fprintf(stderr, "embed: %s holds '</script' or '</style', which would end "
					"the page's element early\n", argv[a]);
			free(p);
			return 1;
		}
		sha256(p, len, digest);
		base64(digest, sizeof(digest), b64);
		printf("\n/* %s, %zu bytes */\nconst char %s[] = {", argv[a], len, argv[a + 1]);
		for (size_t i = 0; i < len; i++)
			printf("%s%d,", i % 20 ? "" : "\n\t", p[i]);
		printf("\n\t0};\nconst char %s_hash[] = \"sha256-%s\";\n", argv[a + 1], b64);
		free(p);
	}
	return fflush(stdout) ? 1 : 0;
}
