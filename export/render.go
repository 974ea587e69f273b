package export

import (
	"bufio"
	"context"
	"io"

	"canopy/htmlpage"
	"canopy/mdpage"
)

// Render writes p's page to w, through a buffer. Once ctx is done, its
// next write fails with ErrInterrupted: a long render stops there.
func Render(ctx context.Context, r *htmlpage.Renderer, w io.Writer, p *Prepared) error {
	bw := bufio.NewWriterSize(&ctxWriter{ctx, w}, 1<<20)
	if err := r.Render(bw, p.Session, p.Page); err != nil {
		return err
	}
	return bw.Flush()
}

// Markdown writes p's conversation as Markdown to w, as Render writes its
// page: mo gives the link, limit, version and From; its Leaf and what it
// says was left out are p's.
func Markdown(ctx context.Context, w io.Writer, p *Prepared, mo mdpage.Options) error {
	mo.Leaf, mo.OriginalSHA256, mo.Omitted = p.Leaf, p.Page.OriginalSHA256, p.Page.Omitted
	bw := bufio.NewWriterSize(&ctxWriter{ctx, w}, 1<<16)
	if err := mdpage.Write(bw, p.Session, mo); err != nil {
		return err
	}
	return bw.Flush()
}
