// The local media engine lives here from the link-to-video issue on; nothing is exported yet.
export {};
