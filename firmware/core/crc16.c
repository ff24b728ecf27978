#include "crc16.h"

/* Bitwise rather than a 512-byte table: flash and RAM matter more than speed at 115200 baud. */
uint16_t crc16_update(uint16_t crc, uint8_t byte)
{
    crc ^= (uint16_t)byte << 8;
    for (uint8_t bit = 0; bit < 8; bit++)
        crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
    return crc;
}

uint16_t crc16(const uint8_t *data, uint8_t length)
{
    uint16_t crc = CRC16_INIT;
    for (uint8_t i = 0; i < length; i++)
        crc = crc16_update(crc, data[i]);
    return crc;
}
