// The exported surface of the kernel module. Each kernel module exports its own batch entry points;
// this file only re-exports them so the build has one entry.
export { reserve } from "./mem";
