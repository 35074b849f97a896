/*
 * bytecode.h - the filter program format, shared by the compiler and the
 * loader. Little-endian, unaligned (read with memcpy).
 *
 *   header  u32 magic | u16 version | u16 n_refs | u32 refs_len | u32 consts_len
 *           | u32 code_len
 *   refs    n_refs of: u8 root | u8 n_elems | n_elems of:
 *             u8 0 | u16 len | name bytes | NUL      (a field name)
 *             u8 1 | u64 index                       (an index)
 *   consts  string literals, each NUL-terminated, referenced by offset
 *   code    instructions: u8 opcode, then its operands
 *
 * Jumps are forward only and land on an instruction; the stack depth at
 * every instruction is the same on every path that reaches it; the program
 * ends with RETURN at depth 1. filter_load() checks all of it.
 */
#ifndef LTT_FILTER_BYTECODE_H
#define LTT_FILTER_BYTECODE_H

#define FILTER_MAGIC 0x6246544cu	/* "LTFb" */
#define FILTER_VERSION 1
#define FILTER_HEADER_SIZE 20

enum filter_op {
	OP_RETURN = 1,		/* pop: the result (truthy passes) */
	OP_PUSH_S64,		/* i64 */
	OP_PUSH_DOUBLE,		/* f64 */
	OP_PUSH_STRING,		/* u32 offset, u32 len: a plain string */
	OP_PUSH_GLOB,		/* u32 offset, u32 len: a pattern with '*' */
	OP_LOAD_REF,		/* u16 ref */
	OP_NEG, OP_PLUS, OP_NOT, OP_BNOT,
	OP_LSHIFT, OP_RSHIFT, OP_BAND, OP_BXOR, OP_BOR,
	OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE,
	OP_JUMP_IF_FALSE_OR_POP,	/* u32 target: falsy top -> 0, jump; else pop */
	OP_JUMP_IF_TRUE_OR_POP,		/* u32 target: truthy top -> 1, jump; else pop */
	OP_TO_BOOL,			/* top -> 0 or 1 */
	OP_END_
};

#endif /* LTT_FILTER_BYTECODE_H */
