import { z } from 'zod';
import { section } from './config-fields.js';

/**
 * device: where this appliance stands. `area` (e.g. kitchen) makes "the kitchen timer" this
 * device's own. On the ground floor because several modules read it: the command core (whose
 * timer is meant), the fleet (its room, when mqtt.room is empty) and the Assist satellite (the
 * area it reports to Home Assistant).
 */
export const deviceSection = section({
  area: z.string({ error: 'must be a room name such as kitchen' }).trim().min(1, 'must not be empty').toLowerCase().optional(),
});

export type DeviceConfig = z.infer<typeof deviceSection>;
