/** The entry point of mvdan-sh (mvdan/sh's parser, compiled by GopherJS); syntax-tree.ts reads the tree it returns. */
declare module 'mvdan-sh' {
  const sh: {
    syntax: {
      /** Parse throws a Go error object (its Error() is the message) when the source does not parse. */
      NewParser(): { Parse(src: string, name: string): object };
    };
  };
  export default sh;
}
