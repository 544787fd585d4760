/** The most items one page of a listing method returns (zod-free: the CLI's argument parser checks --limit against it before loading the contracts). */
export const MAX_PAGE_SIZE = 2000;
