import type { Command } from 'commander';
import { formatGpioReport, gpioReport } from '../gpio/doctor.js';
import { action, loadConfigFor, out } from './common.js';

interface DoctorGpioOpts {
  config?: string;
  sysfsRoot?: string;
  json?: boolean;
}

/** `hark doctor gpio`: which chip and sysfs numbers the button and the LED will use, or why they cannot. */
export function registerDoctorGpio(doctor: Command): Command {
  doctor
    .command('gpio')
    .description('show the BCM pin, GPIO chip and sysfs number for the button and the LED, or why they cannot be used; exits 1 if they cannot')
    .option('-c, --config <file>', 'config file (default: $HARK_CONFIG, /etc/hark/hark.yaml, ./hark.yaml)')
    .option('--sysfs-root <dir>', 'sysfs GPIO directory (default: gpio.sysfsRoot, /sys/class/gpio)')
    .option('--json', 'print the report as JSON')
    .action(
      action((_opts: DoctorGpioOpts, cmd: Command) => {
        // `doctor` has its own -c and --json, and commander gives an option to the parent when both
        // define it: read them merged.
        const opts = cmd.optsWithGlobals<DoctorGpioOpts>();
        const { config } = loadConfigFor(opts);
        const report = gpioReport({
          sysfsRoot: opts.sysfsRoot ?? config.gpio.sysfsRoot,
          buttonPin: config.gpio.buttonPin,
          ledPin: config.gpio.ledPin,
          buttonActiveLow: config.gpio.buttonActiveLow,
        });
        if (opts.json) out(JSON.stringify(report, null, 2));
        else for (const l of formatGpioReport(report)) out(l);
        if (!report.ok) process.exitCode = 1;
      }),
    );
  return doctor;
}
