/*
 * elf.c - the file offset of a symbol in an ELF64 file: what a uprobe
 * takes. The file is outside input: every offset is checked against its size.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/kernel-internal.h"

static bool in_file(size_t size, uint64_t off, uint64_t len)
{
	return off <= size && len <= size - off;
}

/* Looks sym up in one symbol table; returns its st_value or 0. */
static uint64_t find_in_table(const uint8_t *base, size_t size, const Elf64_Shdr *sh,
			      const Elf64_Shdr *strsh, const char *sym)
{
	size_t n, symlen = strlen(sym);

	if (sh->sh_entsize != sizeof(Elf64_Sym) || !in_file(size, sh->sh_offset, sh->sh_size) ||
	    !in_file(size, strsh->sh_offset, strsh->sh_size))
		return 0;
	n = sh->sh_size / sizeof(Elf64_Sym);
	for (size_t i = 0; i < n; i++) {
		Elf64_Sym s;

		memcpy(&s, base + sh->sh_offset + i * sizeof(s), sizeof(s));
		if (s.st_name >= strsh->sh_size || s.st_value == 0 || s.st_shndx == SHN_UNDEF)
			continue;
		if (strsh->sh_size - s.st_name <= symlen)
			continue;
		if (memcmp(base + strsh->sh_offset + s.st_name, sym, symlen + 1) == 0)
			return s.st_value;
	}
	return 0;
}

int kt_elf_symbol_offset(const char *path, const char *sym, uint64_t *ret_offset)
{
	const uint8_t *base = MAP_FAILED;
	struct stat st;
	Elf64_Ehdr eh;
	uint64_t value = 0;
	size_t size = 0;
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		r = -errno;
		goto err;
	}
	size = (size_t)st.st_size;
	if (size < sizeof(eh)) {
		r = -ENOEXEC;
		goto err;
	}
	base = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (base == MAP_FAILED) {
		r = -errno;
		goto err;
	}
	memcpy(&eh, base, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_phentsize != sizeof(Elf64_Phdr) ||
	    !in_file(size, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr)) ||
	    !in_file(size, eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr))) {
		r = -ENOEXEC;
		goto err;
	}
	/* .symtab first (has static functions), then .dynsym */
	for (int pass = 0; pass < 2 && !value; pass++) {
		uint32_t want = pass == 0 ? SHT_SYMTAB : SHT_DYNSYM;

		for (unsigned i = 0; i < eh.e_shnum && !value; i++) {
			Elf64_Shdr sh, strsh;

			memcpy(&sh, base + eh.e_shoff + i * sizeof(sh), sizeof(sh));
			if (sh.sh_type != want || sh.sh_link >= eh.e_shnum)
				continue;
			memcpy(&strsh, base + eh.e_shoff + sh.sh_link * sizeof(strsh), sizeof(strsh));
			value = find_in_table(base, size, &sh, &strsh, sym);
		}
	}
	if (!value) {
		r = -ENOENT;
		goto err;
	}
	r = -ENOENT;
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, base + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD || value < ph.p_vaddr || value - ph.p_vaddr >= ph.p_filesz)
			continue;
		*ret_offset = value - ph.p_vaddr + ph.p_offset;
		r = 0;
		break;
	}
err:
	if (base != MAP_FAILED)
		munmap((void *)base, size);
	close(fd);
	return r;
}
