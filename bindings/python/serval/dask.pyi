import os
from typing import Any, Iterable, List, Mapping, Optional, Tuple, Union

import dask.bag

_Paths = Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]]

class FileError(Tuple[str, str, str, str, int, str]):
    def __new__(cls, path: str, message: str, status: str, format: str = ..., offset: int = ...,
                pointer: str = ...) -> "FileError": ...
    @property
    def path(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def format(self) -> str: ...
    @property
    def offset(self) -> int: ...
    @property
    def pointer(self) -> str: ...

def read_files(paths_or_glob: _Paths, fmt: Optional[str] = ..., npartitions: Optional[int] = ...,
               **options: Any) -> dask.bag.Bag: ...
def convert_files(paths: _Paths, out_dir: Union[str, "os.PathLike[str]"], fmt: str,
                  read_fmt: Optional[str] = ..., read_options: Optional[Mapping[str, Any]] = ...,
                  lossy: bool = ..., npartitions: Optional[int] = ..., compute: bool = ...,
                  **options: Any
                  ) -> Union[List[Tuple[str, Union[str, FileError]]], dask.bag.Bag]: ...
