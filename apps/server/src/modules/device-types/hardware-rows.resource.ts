/**
 * What a type's and a device's Modbus rows share as resources: their request schemas, their
 * columns, the read frame and CRC computed from each row, and how they are sorted and searched.
 */
import { addHardwareConfigRequest, updateHardwareConfigRequest } from '@sluice/shared/device-type.schema';
import { readFrame } from '@sluice/shared/modbus';

const frameOf = (row: Record<string, unknown>) =>
  readFrame(Number(row.modbus_slave), Number(row.cmd), Number(row.reg_ad), Number(row.lens));

type Sortable = 'Sn' | 'No' | 'ModbusSlave' | 'RegAd' | 'ShowKey';
type Searchable = 'No' | 'ShowKey' | 'Address' | 'PLCType' | 'Comm' | 'Port';
const sortable: Sortable[] = ['Sn', 'No', 'ModbusSlave', 'RegAd', 'ShowKey'];
const searchable: Searchable[] = ['No', 'ShowKey', 'Address', 'PLCType', 'Comm', 'Port'];

export const hardwareRowsResource = {
  create: addHardwareConfigRequest,
  update: updateHardwareConfigRequest,
  columns: { Max: 'max_value', Min: 'min_value' },
  computed: {
    ReadFrame: (row: Record<string, unknown>) => frameOf(row)?.frame ?? null,
    Crc: (row: Record<string, unknown>) => frameOf(row)?.crc ?? null,
  },
  sortable,
  searchable,
  defaultOrder: { key: 'Sn' as const, direction: 'asc' as const },
};
