// CRC-32 of 16-byte records, a nibble at a time through a program-scope
// __constant table.
constant uint crc_table[16] = {0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4,
                               0x4db26158, 0x5005713c, 0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
                               0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c};

static uint crc_byte(uint crc, uchar b) {
  crc = crc_table[(crc ^ b) & 15] ^ (crc >> 4);
  return crc_table[(crc ^ (b >> 4)) & 15] ^ (crc >> 4);
}

kernel void crc32(global const uchar *records, global uint *crcs) {
  size_t i = get_global_id(0);
#if GAC_ASYNC
  local uchar rec[32 * 16]; // local size 32: one line of 16 bytes per record
  event_t e = async_work_group_copy_2D2D(rec, 0, records, get_group_id(0) * 32 * 16, 1, 16, 32, 16, 16, 0);
  wait_group_events(1, &e);
  const local uchar *r = rec + get_local_id(0) * 16;
#else
  const global uchar *r = records + i * 16;
#endif
  uint crc = 0xffffffffu;
  for (int k = 0; k < 16; k++)
    crc = crc_byte(crc, r[k]);
  crcs[i] = ~crc;
}
