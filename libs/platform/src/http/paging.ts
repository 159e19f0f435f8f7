/** The spec's paging styles. Every list answer is `{ data, hasMore, ... }`. */

export interface PageResult<T> {
  data: T[];
  hasMore: boolean;
  page: number;
  limit: number;
  total: number;
}

export interface OffsetResult<T> {
  data: T[];
  hasMore: boolean;
  nextOffset: number | null;
  total: number;
}

export interface ListResult<T> {
  data: T[];
  hasMore: boolean;
}

/** Page number paging: `page` from 1, exact `total`. */
export const pageResult = <T>(data: T[], page: number, limit: number, total: number): PageResult<T> => ({
  data,
  hasMore: page * limit < total,
  page,
  limit,
  total,
});

/**
 * Offset paging: send `nextOffset` as the next `offset` while `hasMore`. The count and the read
 * share no snapshot, so an empty page ends the list even when the count says more: otherwise the
 * client would be sent back to the same offset for ever.
 */
export const offsetResult = <T>(data: T[], offset: number, total: number): OffsetResult<T> => {
  const hasMore = data.length > 0 && offset + data.length < total;
  return { data, hasMore, nextOffset: hasMore ? offset + data.length : null, total };
};

/**
 * Capped lists and "older than" paging: fetch `cap + 1` rows; the extra row only says there is more.
 */
export const cappedResult = <T>(rowsPlusOne: T[], cap: number): ListResult<T> => ({
  data: rowsPlusOne.slice(0, cap),
  hasMore: rowsPlusOne.length > cap,
});

/** Whole list: everything, `hasMore` false. */
export const wholeList = <T>(data: T[]): ListResult<T> => ({ data, hasMore: false });
